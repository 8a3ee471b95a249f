import { existsSync } from 'node:fs';
import { CliError } from '../cli-error';
import { ChildService } from './child-service';

/** One of the service's apps (API, ingestor) running as a child process, logging to a file. */
export class AppProcess extends ChildService {
  constructor(
    name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    logFile: string,
    nodeFlags: readonly string[] = [],
  ) {
    if (!existsSync(script))
      throw new CliError(`${script} is missing; build first with \`pnpm build\`.`);
    super(name, { file: process.execPath, args: [...nodeFlags, script], env }, logFile);
  }
}

/** Resolves once `url` answers HTTP at all (any status); fails if the app exits or time runs out. */
export async function waitUntilServing(
  app: ChildService,
  url: string,
  timeoutMs = 60_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (!app.running) break;
    const answered = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      async (res) => (await res.arrayBuffer(), true),
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!app.running) {
    // The apps print one "<name> failed to start: <cause and fix>" line: that is the reason.
    const reason = app
      .lastLogLines(20)
      .split('\n')
      .reverse()
      .find((l) => l.startsWith(`${app.name} failed to start: `));
    if (reason) throw new CliError(`${reason} (log: ${app.logFile})`);
  }
  const why = app.running
    ? `did not answer ${url} within ${timeoutMs / 1000} s`
    : 'exited during start-up';
  throw new CliError(
    `The ${app.name} ${why}. Last lines of ${app.logFile}:\n${app.lastLogLines()}`,
  );
}
