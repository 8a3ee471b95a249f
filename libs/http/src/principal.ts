/** Who a request acts for: an account, through one of its keys. */
export interface Principal {
  keyId: string;
  accountId: number;
  kind: 'secret' | 'restricted';
  /** Graph keys a restricted key may read; null for a secret key (all of the account's graphs). */
  graphKeys: string[] | null;
  /** Set when the viewer page's session cookie authenticated the request: an id of the session. */
  viewerSession?: string;
}

export const mayReadGraph = (p: Principal, graphKey: string): boolean =>
  p.graphKeys === null || p.graphKeys.includes(graphKey);
