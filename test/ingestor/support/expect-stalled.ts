import { cli } from '../../cli/support/run-cli';

/** `graph-history stalled list --json` on `databaseUrl` succeeds and lists a stall with `fields`. */
export async function expectListedStall(
  databaseUrl: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const list = await cli(['stalled', 'list', '--json'], { DATABASE_URL: databaseUrl });
  expect(list).toMatchObject({ code: 0, stderr: '' });
  const stalls = list.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
  expect(stalls).toContainEqual(expect.objectContaining(fields));
}
