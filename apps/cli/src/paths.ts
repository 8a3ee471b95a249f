import path from 'node:path';

/** The repository root: this file runs from apps/cli/dist (built) or apps/cli/src (tests). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export const appEntry = (app: 'api' | 'ingestor'): string =>
  path.join(REPO_ROOT, 'apps', app, 'dist', 'main.js');
