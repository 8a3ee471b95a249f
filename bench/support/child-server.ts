import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts `node <args>` with `env` and waits until `readyUrl` answers 2xx (20 s at most). */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(100)) {
    if (child.exitCode !== null)
      throw new Error(`${args.join(' ')} exited with code ${child.exitCode}`);
    if (
      await fetch(readyUrl).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not become ready within 20 s`);
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
}
