import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code lives: a package, a workspace app or lib, Node itself, or V8's own bins. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  const workspace = /\/((?:apps|libs)\/[^/]+)\//.exec(url);
  if (workspace) return workspace[1]!;
  if (url.startsWith('node:')) return 'node (internal)';
  return url.replace(/^file:\/\//, '').replace(/^.*\/(bench|test)\//, '$1/');
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^.*\/((?:apps|libs)\/)/, '$1');

interface Row {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  /** Profiled wall time and the part of it not idle. */
  seconds: number;
  busySeconds: number;
  areas: Row[];
  selfTime: Row[];
  /** Inclusive time of the workspace's own functions (apps/, libs/). */
  ownInclusive: Row[];
}

/**
 * Self time per function and per area, and inclusive time of the project's own functions, from a
 * `node --cpu-prof` profile; shares are of the busy (non-idle) samples.
 */
export function summariseProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const msPerSample = (seconds * 1000) / profile.samples.length;
  const key = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') continue;
    busy++;
    self.set(key(n), (self.get(key(n)) ?? 0) + 1);
    const area = areaOf(n.callFrame.url, n.callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!;
      if (!/\/(apps|libs)\//.test(frame.callFrame.url) || /node_modules/.test(frame.callFrame.url))
        continue;
      const k = key(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + 1);
    }
  }
  const rows = (m: Map<string, number>, n: number): Row[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, samples]) => ({ name, ms: samples * msPerSample, share: samples / busy }));
  return {
    seconds,
    busySeconds: (busy * msPerSample) / 1000,
    areas: rows(areas, 12),
    selfTime: rows(self, top),
    ownInclusive: rows(inclusive, top),
  };
}

/** The summary as markdown tables. */
export function profileMarkdown(title: string, s: ProfileSummary): string {
  const table = (head: string, rows: Row[]) =>
    [
      `| ${head} | ms | share of busy |`,
      '|---|---:|---:|',
      ...rows.map((r) => `| \`${r.name}\` | ${r.ms.toFixed(0)} | ${(100 * r.share).toFixed(1)}% |`),
    ].join('\n');
  return [
    `### ${title}`,
    '',
    `${s.seconds.toFixed(1)} s profiled, ${s.busySeconds.toFixed(1)} s busy (not idle).`,
    '',
    table('self time by area', s.areas),
    '',
    table('self time by function', s.selfTime),
    '',
    table('inclusive time, own code (apps/, libs/)', s.ownInclusive),
    '',
  ].join('\n');
}
