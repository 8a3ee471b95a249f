import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeIngest } from '../watch/support/fake-ingest';
import { FIXTURES } from '../watch/support/fixture-lines';
import { cli } from './support/run-cli';

const CLI = path.resolve(__dirname, '../../apps/cli/dist/main.js');

describe('the CLI says plainly what happens', () => {
  it('names a bad number setting and what it must be', async () => {
    const run = await cli(['start'], { PORT: 'abc' });
    expect(run).toMatchObject({ code: 78, stdout: '' });
    expect(run.stderr).toBe(
      'error: Invalid configuration: PORT="abc": must be a whole number from 1 to 65535\n',
    );
  });

  describe('a live watch', () => {
    const server = new FakeIngest();
    let tmp: string;
    let url: string;
    beforeAll(async () => {
      tmp = mkdtempSync(path.join(tmpdir(), 'gh-watch-live-out-'));
      url = await server.start();
    });
    afterAll(async () => {
      await server.stop();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('reports what it found before any status line, and ends on Ctrl-C with a line saying it stopped', async () => {
      const projects = path.join(tmp, 'projects');
      cpSync(path.join(FIXTURES, 'v1-inline-sidechains'), path.join(projects, '-path-to-Demo'), {
        recursive: true,
      });
      const child = spawn(
        process.execPath,
        [CLI, 'watch', '--dir', projects, '--url', url, '--key', server.apiKey, '--no-hooks'],
        {
          env: { PATH: process.env.PATH, DATA_DIR: path.join(tmp, 'data') },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      for (let i = 0; i < 100 && !/sent \d+ events/.test(out); i++)
        await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      const lines = out.trimEnd().split('\n');
      const found = lines.findIndex((l) => l.startsWith('Found 1 session'));
      expect(found).toBeGreaterThanOrEqual(0);
      expect(lines.slice(0, found).filter((l) => l.startsWith('watching '))).toEqual([]);
      expect(lines.at(-1)).toBe('watch stopped.');
    });
  });
});
