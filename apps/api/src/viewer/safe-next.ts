/** Where to go after signing in: a viewer path of this site, else the index of shares. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/graphs(\/[A-Za-z0-9_-]*)?(\?[^\s\\]*)?$/.test(next)
    ? next
    : '/graphs';
}
