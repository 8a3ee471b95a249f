import { DEFAULT_PRICES, parsePriceTable, priceOf } from './model-prices';
import file from './model-prices.json';

describe('model prices', () => {
  it('finds a dated model name under its undated entry', () => {
    expect(priceOf(DEFAULT_PRICES, 'claude-sonnet-4-5-20250929')).toEqual(
      priceOf(DEFAULT_PRICES, 'claude-sonnet-4-5'),
    );
    expect(priceOf(DEFAULT_PRICES, 'gpt-5-2025-08-07')).toEqual(priceOf(DEFAULT_PRICES, 'gpt-5'));
    expect(priceOf(DEFAULT_PRICES, 'claude-sonnet-4-5-preview')).toBeUndefined();
  });

  it('dates and sources every entry of the repository table', () => {
    for (const entry of Object.values(file.models)) {
      expect(entry.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.source).toMatch(/^https:\/\//);
    }
    expect(DEFAULT_PRICES.size).toBe(Object.keys(file.models).length);
  });

  it('refuses a table with a missing price or source, naming where', () => {
    const entry = {
      input: 1,
      cache_read: 0.1,
      cache_write: 1.25,
      output: 5,
      as_of: '2026-01-01',
      source: 'https://x.test/p',
    };
    expect(parsePriceTable({ models: { m: entry } }).get('m')).toEqual({
      input: 1,
      cache_read: 0.1,
      cache_write: 1.25,
      output: 5,
    });
    const { output: _o, ...noOutput } = entry;
    expect(() => parsePriceTable({ models: { m: noOutput } })).toThrow('models.m.output');
    expect(() => parsePriceTable({ models: { m: { ...entry, source: 'nowhere' } } })).toThrow(
      'models.m.source',
    );
  });
});
