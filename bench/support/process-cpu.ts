import { readFileSync } from 'node:fs';

const TICK_US = 1e6 / 100; // USER_HZ: 100 on Linux

/** User + system CPU time of a process so far, in µs (/proc/<pid>/stat), or null off Linux. */
export function processCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces) start at state, field 3
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return null;
  }
}
