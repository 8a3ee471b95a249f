import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Announcement } from '@graph-history/adapters';
import { HookInbox } from '@graph-history/cli/watch/hook-inbox';
import { fireHook } from './support/fire-hook';

describe('hook command → watch hook inbox', () => {
  let dir: string;
  let warnings: string[];
  const log = () => ({ info: () => undefined, warn: (m: string) => void warnings.push(m) });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gh-inbox-'));
    warnings = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('hands the hook payload to the running watch, dated when the hook ran', async () => {
    const got: Announcement[] = [];
    const inbox = new HookInbox(join(dir, 'inbox'), (a) => got.push(a), log());
    expect(await inbox.start()).toBe(true);
    const payload = { session_id: 's1', hook_event_name: 'Stop', transcript_path: '/x/s1.jsonl' };
    const before = Date.now() - 1_000; // file times may be coarser than the clock
    expect(await fireHook(inbox.dir, JSON.stringify(payload, null, 2))).toBe(0);
    await inbox.scan();
    expect(got).toEqual([{ payload, receivedAt: expect.any(Number) }]);
    expect(got[0]!.receivedAt).toBeGreaterThanOrEqual(before);
    expect(readdirSync(inbox.dir)).toEqual(['watch.pid']);
    await inbox.close();
    expect(existsSync(inbox.dir)).toBe(false);
  });

  it('exits 0 and writes nothing when no watch runs; drops input that is not JSON', async () => {
    expect(await fireHook(join(dir, 'nobody'), '{"session_id":"s1"}')).toBe(0);
    expect(existsSync(join(dir, 'nobody'))).toBe(false);
    const got: Announcement[] = [];
    const inbox = new HookInbox(join(dir, 'inbox'), (a) => got.push(a), log());
    await inbox.start();
    expect(await fireHook(inbox.dir, 'not json')).toBe(0);
    expect(await fireHook(inbox.dir, '')).toBe(0);
    await inbox.scan();
    await inbox.close();
    expect(got).toEqual([]);
  });

  it('leaves the folder to the watch that has it, and drops files a stopped watch left', async () => {
    const path = join(dir, 'inbox');
    const first = new HookInbox(path, () => undefined, log());
    expect(await first.start()).toBe(true);
    const second = new HookInbox(path, () => undefined, log());
    expect(await second.start()).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('takes the hooks in')]);
    await first.close();

    const got: Announcement[] = [];
    const third = new HookInbox(path, (a) => got.push(a), log());
    await third.start();
    writeFileSync(join(path, 'watch.pid'), '999999999');
    writeFileSync(join(path, 'h1.json'), '{"hook_event_name":"Stop"}');
    await third.close();
    const fourth = new HookInbox(path, (a) => got.push(a), log());
    await fourth.start();
    writeFileSync(join(path, 'h2.json'), '{"hook_event_name":"Stop"}');
    await fourth.scan();
    await fourth.close();
    expect(got.map((a) => a.payload)).toEqual([{ hook_event_name: 'Stop' }]);
  });
});
