import { access, constants, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { CliError } from '../cli-error';

/** DATA_DIR exists (created if missing) and this user may write in it. */
export async function assertDataDirWritable(dataDir: string): Promise<void> {
  const dir = path.resolve(dataDir);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliError(
      `DATA_DIR ${dir} is not a folder this user can write (${code}): fix its permissions, or set DATA_DIR to another folder.`,
    );
  }
}

export interface PortUse {
  port: number;
  /** The setting that chooses it, e.g. PORT. */
  variable: string;
  /** What would listen there, e.g. "the read API". */
  what: string;
}

/** Each port can be listened on at `host`; else one line naming the port, its user and the fix. */
export async function assertPortsFree(host: string, uses: PortUse[]): Promise<void> {
  for (const use of uses) {
    const code = await listenProblem(host, use.port);
    if (!code) continue;
    const where = `${host}:${use.port}`;
    const fix = `set ${use.variable} to a free port`;
    if (code === 'EADDRINUSE') {
      throw new CliError(
        `Port ${use.port} (${use.variable}, ${use.what}) is already in use on ${host}: stop what listens there (\`ss -ltnp 'sport = :${use.port}'\` shows it), or ${fix}.`,
      );
    }
    if (code === 'EACCES') {
      throw new CliError(
        `Listening on ${where} (${use.variable}, ${use.what}) is not allowed for this user: ${fix} above 1023.`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new CliError(
        `HOST ${host} is not an address of this machine: set HOST to 127.0.0.1, or to 0.0.0.0 for every interface.`,
      );
    }
    throw new CliError(
      `Cannot listen on ${where} (${use.variable}, ${use.what}): ${code}; ${fix}.`,
    );
  }
}

function listenProblem(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}
