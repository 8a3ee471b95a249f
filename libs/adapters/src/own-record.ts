/**
 * Plain-object maps keyed by ids read from transcripts. Plain objects keep adapter state JSON;
 * these helpers keep keys such as `__proto__` or `constructor` from reaching the prototype.
 */
export type OwnRecord<T> = Record<string, T>;

export function getOwn<T>(record: OwnRecord<T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function setOwn<T>(record: OwnRecord<T>, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

export function deleteOwn<T>(record: OwnRecord<T>, key: string): void {
  if (Object.hasOwn(record, key)) delete record[key];
}
