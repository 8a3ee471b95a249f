import type { FileMemo } from './state';

/** Uuids remembered per file; compaction re-appends recent rows, not whole histories. */
export const SEEN_MAX = 20_000;

const sets = new WeakMap<FileMemo, Set<string>>();

/**
 * True when the file already had a line with this uuid (a compaction re-appended it); otherwise
 * remembers it. The list lives in the file's memo (plain JSON); a Set mirrors it for lookups.
 */
export function seenBefore(file: FileMemo, uuid: string): boolean {
  const list = (file.seen ??= []);
  let set = sets.get(file);
  if (!set || set.size !== list.length) {
    set = new Set(list);
    sets.set(file, set);
  }
  if (set.has(uuid)) return true;
  list.push(uuid);
  set.add(uuid);
  if (list.length > SEEN_MAX) set.delete(list.shift()!);
  return false;
}
