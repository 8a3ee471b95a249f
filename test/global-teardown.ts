export default async function globalTeardown(): Promise<void> {
  for (const c of globalThis.__GH_CONTAINERS__ ?? []) await c.stop();
}
