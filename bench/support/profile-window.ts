import { ChildProcess } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';

export const PROFILE_WINDOW_PRELOAD = path.resolve(__dirname, 'cpu-profile-preload.js');
/** Windows taken per process, to name the next one as the preload does. */
const profiled = new Map<number, number>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(file: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !existsSync(file); await sleep(50))
    if (Date.now() > deadline) throw new Error(`no ${file} after 60 s`);
}

/**
 * Profiles `children` (started with PROFILE_WINDOW_PRELOAD and CPU_PROFILE_DIR=dir) while `during`
 * runs; writes `<dir>/<name>.cpuprofile` (`<name>-<i>` for the i-th of several processes).
 */
export async function profileWindow<T>(
  children: ChildProcess[],
  dir: string,
  name: string,
  during: () => Promise<T>,
): Promise<T> {
  const windows = children.map((c) => {
    const n = profiled.get(c.pid!) ?? 0;
    profiled.set(c.pid!, n + 1);
    return path.join(dir, `window-${c.pid}-${n}`);
  });
  for (const c of children) c.kill('SIGUSR2');
  await Promise.all(windows.map((w) => waitFor(`${w}.started`)));
  const result = await during();
  for (const c of children) c.kill('SIGUSR2');
  await Promise.all(windows.map((w) => waitFor(`${w}.cpuprofile`)));
  windows.forEach((w, i) =>
    renameSync(
      `${w}.cpuprofile`,
      path.join(dir, `${name}${children.length > 1 ? `-${i}` : ''}.cpuprofile`),
    ),
  );
  return result;
}
