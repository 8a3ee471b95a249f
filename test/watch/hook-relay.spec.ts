import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Announcement } from '@graph-history/adapters';
import { HookInbox } from '@graph-history/cli/watch/hook-inbox';
import { fireHook } from './support/fire-hook';

async function fire(socket: string, input: string) {
  return { status: await fireHook(socket, input) };
}

describe('hook relay → watch hook inbox', () => {
  let dir: string;
  let warnings: string[];
  const log = () => ({ info: () => undefined, warn: (m: string) => void warnings.push(m) });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gh-relay-'));
    warnings = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('hands the hook payload to the running watch', async () => {
    const got: Announcement[] = [];
    const inbox = new HookInbox(join(dir, 'h.sock'), (a) => got.push(a), log());
    expect(await inbox.start()).toBe(true);
    const payload = { session_id: 's1', hook_event_name: 'Stop', transcript_path: '/x/s1.jsonl' };
    const before = Date.now();
    expect(await fire(inbox.path, JSON.stringify(payload, null, 2))).toEqual({ status: 0 });
    for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await inbox.close();
    expect(got).toEqual([{ payload, receivedAt: expect.any(Number) }]);
    expect(got[0]!.receivedAt).toBeGreaterThanOrEqual(before);
  });

  it('exits 0 when no watch runs, or on input that is not JSON', async () => {
    expect(await fire(join(dir, 'nobody.sock'), '{"session_id":"s1"}')).toEqual({ status: 0 });
    const got: Announcement[] = [];
    const inbox = new HookInbox(join(dir, 'h.sock'), (a) => got.push(a), log());
    await inbox.start();
    expect(await fire(inbox.path, 'not json')).toEqual({ status: 0 });
    expect(await fire(inbox.path, '')).toEqual({ status: 0 });
    await new Promise((r) => setTimeout(r, 100));
    await inbox.close();
    expect(got).toEqual([]);
  });

  it('takes over a stale socket file, and leaves a live one to the watch that owns it', async () => {
    const path = join(dir, 'h.sock');
    const first = new HookInbox(path, () => undefined, log());
    expect(await first.start()).toBe(true);
    const second = new HookInbox(path, () => undefined, log());
    expect(await second.start()).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('another watch listens for hooks')]);
    await first.close();

    writeFileSync(path, 'left over by a watch that crashed');
    const third = new HookInbox(path, () => undefined, log());
    expect(await third.start()).toBe(true);
    await third.close();
  });
});
