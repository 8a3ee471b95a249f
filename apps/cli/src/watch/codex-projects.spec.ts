import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODEX_FIXTURES } from '../../../../test/watch/support/codex-facts';
import { CodexFinder } from './codex-finder';
import { CodexProjects, codexTarget, defaultCodexSessionsDir } from './codex-projects';

describe('Codex projects', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gh-codex-projects-'));
    cpSync(CODEX_FIXTURES, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('groups rollouts by the cwd of the session they descend from, named as Claude Code names it', async () => {
    const projects = await new CodexProjects(dir).find();
    expect(projects.map((p) => [p.name, p.cwd, p.sessions, p.threads.length]).sort()).toEqual([
      ['-home-dev-blog', '/home/dev/blog', 1, 1],
      ['-home-dev-shop', '/home/dev/shop', 1, 4],
    ]);
  });

  it('reads a rollout whose first line is not complete yet at a later pass', async () => {
    const day = join(dir, '2026', '03', '02');
    const id = '019c8a12-6666-7000-8000-00000000e001';
    const path = join(day, `rollout-2026-03-02T11-00-00-${id}.jsonl`);
    writeFileSync(
      path,
      '{"timestamp":"2026-03-02T11:00:00Z","type":"session_meta","payload":{"id"',
    );
    const finder = new CodexFinder(dir);
    await finder.find();
    expect(finder.describe()).toMatch(
      /^Codex: found 2 sessions \(3 sub-agents\) in 2 projects under /,
    );
    appendFileSync(path, `:"${id}","cwd":"/home/dev/new","cli_version":"0.116.0"}}\n`);
    const found = await finder.find();
    expect(found.map((f) => f.name).sort()).toEqual([
      '-home-dev-blog',
      '-home-dev-new',
      '-home-dev-shop',
    ]);
    expect(finder.sessions).toBe(3);
  });

  it('follows one session and its sub-agents when --dir names its rollout', async () => {
    const day = join(dir, '2026', '03', '02');
    const root = readdirSync(day).find((f) => f.includes('a001'))!;
    const target = codexTarget(join(day, root));
    expect(target.dir).toBe(day);
    const projects = await new CodexProjects(target.dir).find(target.onlyRoot);
    expect(projects.map((p) => [p.cwd, p.threads.length])).toEqual([['/home/dev/shop', 4]]);
  });

  it('finds the sessions folder under CODEX_HOME', () => {
    expect(defaultCodexSessionsDir({ CODEX_HOME: '/x/codex' })).toBe('/x/codex/sessions');
  });
});
