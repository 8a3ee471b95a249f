import { loadavg } from 'node:os';

/** The 1, 5 and 15 minute load averages (as `uptime` prints them): the machine is shared. */
export const loadAverage = (): string =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;
