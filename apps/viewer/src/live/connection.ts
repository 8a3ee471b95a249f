/** Whether the service answered the latest request: reported by the client's fetch, shown as live status. */
const listeners = new Set<(reached: boolean) => void>();

export function onConnection(fn: (reached: boolean) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function reportConnection(reached: boolean): void {
  listeners.forEach((fn) => fn(reached));
}
