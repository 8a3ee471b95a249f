import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CliError } from '../cli-error';
import { inKeyCharacters, legacyGraphKeyFor } from './projects';

/** Characters of a key's tag: 32 of them, so each carries 5 bits (ambiguous 0/1/l/o left out). */
const TAG_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const TAG_LENGTH = 10;
/** The slug keeps the end of the folder name (the project's own name) within 64 characters. */
const SLUG_MAX = 64 - TAG_LENGTH - 1;
const SECRET = /^[0-9a-f]{64}$/;

/**
 * Default graph keys of `watch`: `<project slug>-<tag>`, the tag 10 characters (50 bits) of an
 * HMAC of the project folder's name keyed by a secret of this machine's watch
 * (`<DATA_DIR>/watch/graph-key-secret`, made on first use), so another tenant cannot guess and
 * claim a project's key first, and the key stays the same across restarts. A project this data
 * folder already shared under its older, guessable key (its snapshot is there) keeps that key.
 */
export class ProjectGraphKeys {
  private secret: Promise<Buffer> | undefined;

  constructor(private readonly dataDir: string) {}

  get secretPath(): string {
    return join(this.dataDir, 'watch', 'graph-key-secret');
  }

  async keyFor(projectName: string): Promise<string> {
    const legacy = legacyGraphKeyFor(projectName);
    if (existsSync(join(this.dataDir, 'watch', legacy, 'timeline.json'))) return legacy;
    const digest = createHmac('sha256', await this.loadSecret())
      .update(projectName)
      .digest();
    let tag = '';
    for (let i = 0; i < TAG_LENGTH; i++) tag += TAG_ALPHABET[digest[i]! % TAG_ALPHABET.length];
    return `${slugOf(projectName)}-${tag}`;
  }

  private loadSecret(): Promise<Buffer> {
    return (this.secret ??= this.readOrCreateSecret());
  }

  private async readOrCreateSecret(): Promise<Buffer> {
    const path = this.secretPath;
    await mkdir(dirname(path), { recursive: true });
    if (!existsSync(path)) {
      // written whole, then linked: of two watches starting together one secret wins, complete
      const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
      await link(draft, path).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      await unlink(draft);
    }
    const text = (await readFile(path, 'utf8')).trim();
    if (!SECRET.test(text))
      throw new CliError(
        `${path} is not a watch graph-key secret (64 hex digits); restore it, or delete it to give every project a new graph.`,
      );
    return Buffer.from(text, 'hex');
  }
}

/** The folder name in graph-key characters, its end kept; `claude-code` when nothing is left. */
export function slugOf(projectName: string): string {
  const slug = inKeyCharacters(projectName)
    .slice(-SLUG_MAX)
    .replace(/^[-_]+/, '');
  return slug === '' ? 'claude-code' : slug;
}
