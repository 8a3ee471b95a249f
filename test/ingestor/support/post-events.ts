/** POSTs `{ events }` to a graph's ingest endpoint with `auth`; the status and the parsed body. */
export async function postEvents(
  baseUrl: string,
  auth: string,
  graphKey: string,
  events: unknown[],
): Promise<{ status: number; body: { accepted: number; duplicates: number } }> {
  const res = await fetch(`${baseUrl}/ingest/v1/graphs/${graphKey}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify({ events }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { accepted: number; duplicates: number },
  };
}
