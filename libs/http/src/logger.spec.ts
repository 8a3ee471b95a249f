import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp, { type Options } from 'pino-http';
import { loggerParams } from './logger';

/** The request log line pino-http writes, with our options, for a GET of `path`. */
async function logLineFor(path: string, headers: Record<string, string> = {}): Promise<string> {
  let out = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      out += String(chunk);
      cb();
    },
  });
  const opts = loggerParams('info', 'test').pinoHttp as Options;
  const log = pinoHttp(opts, stream);
  const server = createServer((req, res) => {
    log(req, res);
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}${path}`, { headers })).text();
    await new Promise((r) => setTimeout(r, 20));
    return out;
  } finally {
    server.close();
  }
}

describe('request log', () => {
  const key = `sk_live_${'A1b2'.repeat(8)}`;

  it('never writes a key given as ?api_key= or anywhere else in the URL', async () => {
    const line = await logLineFor(`/api/v1/graphs?limit=2&api_key=${key}&x=${key}`);
    expect(line).toContain('"url":"/api/v1/graphs?limit=2&api_key=[redacted]&x=sk_live_****A1b2"');
    expect(line).not.toContain(key);
  });

  it('keeps ordinary URLs as they are and redacts key headers', async () => {
    const line = await logLineFor('/api/v1/graphs/gph_a?expand[]=children', {
      authorization: `Bearer ${key}`,
      'x-api-key': key,
    });
    expect(line).toContain('"url":"/api/v1/graphs/gph_a?expand[]=children"');
    expect(line).not.toContain(key);
  });
});
