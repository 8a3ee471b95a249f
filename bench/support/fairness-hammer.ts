/**
 * The hammering account of `pnpm bench:fairness`, in its own process so that reading its large
 * answers never delays the light client's clock. Runs `HAMMER_CONNECTIONS` loops per key, each
 * sending the expensive read again as soon as it is answered, and after a 429 waiting the
 * Retry-After it was given (a client using its whole quota). Prints `{served, refused, bytes}` as
 * JSON on SIGTERM.
 */
const base = process.env.HAMMER_BASE_URL!;
const keys = process.env.HAMMER_KEYS!.split(',');
const paths = process.env.HAMMER_PATHS!.split(',');
const connections = Number(process.env.HAMMER_CONNECTIONS ?? 4);

const counts = { served: 0, refused: 0, bytes: 0 };
let stopping = false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function loop(key: string, offset: number): Promise<void> {
  for (let i = offset; !stopping; i++) {
    try {
      const res = await fetch(`${base}${paths[i % paths.length]}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = await res.arrayBuffer();
      if (res.status === 429) {
        counts.refused++;
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
      } else {
        counts.served++;
        counts.bytes += body.byteLength;
      }
    } catch {
      await sleep(100);
    }
  }
}

process.on('SIGTERM', () => {
  stopping = true;
  process.stdout.write(`${JSON.stringify(counts)}\n`, () => process.exit(0));
});
for (const key of keys) for (let c = 0; c < connections; c++) void loop(key, c);
