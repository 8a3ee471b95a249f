/**
 * The API bench's baseline: a bare Fastify + pg server answering one single-row lookup (a node
 * version as of an event, the same indexed lookup a node read needs) with the row's JSON.
 * Run by bench/api.ts as a child process: `node -r ./bench/ts-hook.js bench/api-baseline-server.ts`.
 */
import Fastify from 'fastify';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.get('/ready', async () => ({ ok: true }));
app.get<{ Querystring: { g: string; n: string; s: string } }>('/node', async (req, reply) => {
  const { rows } = await pool.query(
    'select rec from node_versions where graph_id = $1 and node_no = $2 and valid_from <= $3 order by valid_from desc limit 1',
    [req.query.g, req.query.n, req.query.s],
  );
  if (!rows[0]) return reply.code(404).send({ error: 'not found' });
  return rows[0].rec;
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
