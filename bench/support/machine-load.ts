import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** The 1, 5 and 15 minute load averages (as `uptime` prints them): the machine is shared. */
export const loadAverage = (): string =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command (which may hold spaces), 1-based: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
