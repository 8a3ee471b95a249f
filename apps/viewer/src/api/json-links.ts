/** The address of an API read, for links to the JSON behind what the page shows. */
export function jsonLink(
  path: string,
  query: Record<string, string | null | string[]> = {},
): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === null) continue;
    if (Array.isArray(v)) v.forEach((x) => params.append('expand[]', x));
    else params.set(k, v);
  }
  const qs = params.toString();
  return `/api/v1${path}${qs ? `?${qs}` : ''}`;
}
