import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Injectable } from '@nestjs/common';

export interface ViewerAsset {
  body: Buffer;
  gzipped: Buffer;
  contentType: string;
}

const FILES: Record<string, string> = {
  'viewer.js': 'text/javascript; charset=utf-8',
  'viewer.css': 'text/css; charset=utf-8',
};

/**
 * The built front end (`@graph-history/viewer`, `dist/`), read once at start-up and served under a
 * path holding a hash of its content, so browsers may cache it for good.
 */
@Injectable()
export class ViewerAssets {
  private readonly files = new Map<string, ViewerAsset>();
  /** Path prefix of this build's files, `/viewer/<hash>`. */
  readonly base: string;

  constructor() {
    const dist = join(dirname(require.resolve('@graph-history/viewer/package.json')), 'dist');
    const digest = createHash('sha256');
    for (const [name, contentType] of Object.entries(FILES)) {
      const body = readFileSync(join(dist, name));
      digest.update(body);
      this.files.set(name, { body, gzipped: gzipSync(body, { level: 9 }), contentType });
    }
    this.base = `/viewer/${digest.digest('base64url').slice(0, 12)}`;
  }

  /** The file of this build, or null (another build's hash, or no such file). */
  find(hash: string, name: string): ViewerAsset | null {
    return `/viewer/${hash}` === this.base ? (this.files.get(name) ?? null) : null;
  }
}
