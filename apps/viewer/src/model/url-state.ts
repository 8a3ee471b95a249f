/** What a share page's URL holds: the moment shown (null = live) and the node selected. */
export interface ViewState {
  asOf: string | null;
  node: string | null;
}

export function readViewState(): ViewState {
  const q = new URLSearchParams(location.search);
  return { asOf: q.get('as_of'), node: q.get('node') };
}

/** Puts the view in the address bar, so a copied link opens exactly this view. */
export function writeViewState(s: ViewState, push = false): void {
  const q = new URLSearchParams();
  if (s.asOf) q.set('as_of', s.asOf);
  if (s.node) q.set('node', s.node);
  const qs = q.toString();
  const url = `${location.pathname}${qs ? `?${qs}` : ''}`;
  if (url === location.pathname + location.search) return;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}
