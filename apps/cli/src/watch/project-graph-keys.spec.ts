import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectGraphKeys, slugOf } from './project-graph-keys';
import { legacyGraphKeyFor } from './projects';

describe('ProjectGraphKeys (default graph keys of watch)', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'gh-graph-keys-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));
  const keysIn = (name: string) => new ProjectGraphKeys(join(tmp, name));

  it('gives `<project slug>-<10-character tag>`, a valid graph key for any folder name', async () => {
    const keys = keysIn('a');
    expect(await keys.keyFor('-home-USER-projects-root-app')).toMatch(
      /^home-USER-projects-root-app-[a-z2-9]{10}$/,
    );
    for (const name of ['...', 'été ünïcode', `-home-${'x'.repeat(80)}-my-project`, '-'.repeat(9)])
      expect(await keys.keyFor(name)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(await keys.keyFor(`-home-${'x'.repeat(80)}-my-project`)).toMatch(
      /-my-project-[a-z2-9]{10}$/,
    );
    expect(slugOf('...')).toBe('claude-code');
    expect(slugOf('été ünïcode')).toBe('t-n-code');
  });

  it('cannot be guessed from the folder name: another machine (secret) derives another key', async () => {
    const project = '-home-USER-projects-root-app';
    const a = await keysIn('a').keyFor(project);
    const b = await keysIn('b').keyFor(project);
    expect(a).not.toBe(b);
    expect(a).not.toBe(legacyGraphKeyFor(project));
    // folders whose names clean to the same slug still get different graphs
    expect(await keysIn('a').keyFor('-my.app')).not.toBe(await keysIn('a').keyFor('-my-app'));
  });

  it('stays the same across restarts: the secret is made once and kept, readable by its owner only', async () => {
    const first = keysIn('a');
    const key = await first.keyFor('-home-me-app');
    const secret = readFileSync(first.secretPath, 'utf8');
    expect(secret).toMatch(/^[0-9a-f]{64}\n$/);
    expect(statSync(first.secretPath).mode & 0o777).toBe(0o600);
    expect(await keysIn('a').keyFor('-home-me-app')).toBe(key);
    expect(readFileSync(first.secretPath, 'utf8')).toBe(secret);
  });

  it('makes one secret when several watches start together', async () => {
    const all = await Promise.all(
      Array.from({ length: 8 }, () => keysIn('a').keyFor('-home-me-app')),
    );
    expect(new Set(all).size).toBe(1);
  });

  it('keeps the older key of a project this data folder already shared under it', async () => {
    const legacy = legacyGraphKeyFor('-home-me-old');
    mkdirSync(join(tmp, 'a', 'watch', legacy), { recursive: true });
    writeFileSync(join(tmp, 'a', 'watch', legacy, 'timeline.json'), '{}');
    expect(await keysIn('a').keyFor('-home-me-old')).toBe(legacy);
  });

  it('refuses a damaged secret rather than moving every project to a new graph', async () => {
    const keys = keysIn('a');
    mkdirSync(join(tmp, 'a', 'watch'), { recursive: true });
    writeFileSync(keys.secretPath, 'not a secret');
    await expect(keys.keyFor('-home-me-app')).rejects.toThrow(/is not a watch graph-key secret/);
  });
});
