/**
 * The API bench's baseline: a bare Fastify + pg server answering a primary-key lookup of one node
 * version (a ~1 KB jsonb, the size of a node; see baseline-rows.ts) with the row's JSON: the least
 * any node read costs.
 * Run by bench/api.ts as a child process: `node -r ./bench/ts-hook.js bench/api-baseline-server.ts`.
 */
import Fastify from 'fastify';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.get('/ready', async () => ({ ok: true }));
app.get<{ Querystring: { g: string; n: string; v: string } }>('/node', async (req, reply) => {
  const { rows } = await pool.query({
    name: 'node-version',
    text: 'select doc from bench_baseline_rows where graph_id = $1 and node_no = $2 and valid_from = $3',
    values: [req.query.g, req.query.n, req.query.v],
  });
  if (!rows[0]) return reply.code(404).send({ error: 'not found' });
  return rows[0].doc;
});

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((err) => {
  process.stderr.write(`${err}\n`);
  process.exit(1);
});
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
