import { ConfigError, loadConfig } from './config';
import { parseDuration } from './durations';

describe('durations', () => {
  it('parses ms, s, m, h and d', () => {
    expect(['250ms', '10s', '5m', '2h', '3d', ' 7s '].map((d) => parseDuration(d))).toEqual([
      250, 10_000, 300_000, 7_200_000, 259_200_000, 7_000,
    ]);
    for (const bad of ['', '10', 's', '1.5s', '-1s', '10 s', '1w'])
      expect(parseDuration(bad)).toBeNull();
  });

  it('webhook settings: defaults, lists, and one line naming a bad value', () => {
    const c = loadConfig({});
    expect(c.WEBHOOK_RETRY_SCHEDULE).toHaveLength(13);
    const total = c.WEBHOOK_RETRY_SCHEDULE.reduce((s, ms) => s + ms, 0);
    expect(total / 86_400_000).toBeGreaterThan(3);
    expect(total / 86_400_000).toBeLessThan(3.5);
    expect([c.WEBHOOK_DISABLE_AFTER, c.WEBHOOK_SECRET_OVERLAP]).toEqual([259_200_000, 86_400_000]);
    expect(c.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    const set = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '100ms,2s',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SECRET_OVERLAP: '0s',
    });
    expect(set.WEBHOOK_RETRY_SCHEDULE).toEqual([100, 2_000]);
    expect(set.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(set.WEBHOOK_SECRET_OVERLAP).toBe(0);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s,,2s' })).toThrow(
      new ConfigError(
        'Invalid configuration: WEBHOOK_RETRY_SCHEDULE="1s,,2s": must be 1 to 50 durations separated by commas, such as 10s,1m,1h',
      ),
    );
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER: '0s' })).toThrow(
      /WEBHOOK_DISABLE_AFTER="0s": must be a duration/,
    );
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(
      /must be one of true, false/,
    );
  });
});
