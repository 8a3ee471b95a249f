/** What the watcher shows at a terminal; updated in place by the runner and its timelines. */
export interface WatchStats {
  sessions: number;
  /** Events sent (new or already stored). */
  sent: number;
  /** From the newest sent line's own timestamp to when it was sent, in ms. */
  lagMs?: number;
  /** Lines held in reorder windows. */
  held: number;
  /** Problems reported (bad lines, unreadable files, refused events). */
  errors: number;
  /** Hook announcements received. */
  hooks: number;
}

export const emptyStats = (): WatchStats => ({
  sessions: 0,
  sent: 0,
  held: 0,
  errors: 0,
  hooks: 0,
});
