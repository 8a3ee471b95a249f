import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../cli-error';
import { ChildService } from '../start/child-service';

export interface Balanced {
  name: string;
  /** Port HAProxy listens on (127.0.0.1). */
  port: number;
  /** Ports of the servers behind it (127.0.0.1). */
  servers: number[];
}

/** Health check period and how many failed (or passed) checks take a server out (or back). */
export const CHECK_INTER_MS = 500;
export const CHECK_FALL = 2;

/**
 * HAProxy's configuration: one frontend per balanced service, round robin over servers checked
 * with `GET /readyz` every 0.5 s (out after 2 failures, back after 2 successes). A request whose
 * connection is refused is retried once on another server (`redispatch`). Event and notice streams
 * are long responses: `timeout client`/`timeout server` (inactivity on either side) stay well above
 * the streams' heartbeat (STREAM_HEARTBEAT_MS, 15 s), so an idle stream is kept; `timeout tunnel`
 * covers connections HAProxy turns into tunnels (upgrades). A replica killed mid-stream closes
 * its streams; the clients reconnect with Last-Event-ID and HAProxy sends them to another.
 */
export function haproxyConfig(services: Balanced[]): string {
  const lines = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option http-keep-alive',
    '  option forwardfor',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  timeout client-fin 5s',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
  ];
  for (const s of services) {
    lines.push(
      `frontend ${s.name}`,
      `  bind 127.0.0.1:${s.port}`,
      `  default_backend ${s.name}-servers`,
      `backend ${s.name}-servers`,
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      `  default-server inter ${CHECK_INTER_MS}ms fall ${CHECK_FALL} rise 2`,
      ...s.servers.map((port, i) => `  server ${s.name}${i + 1} 127.0.0.1:${port} check`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** HAProxy (Debian's package) in the foreground, with the configuration above (`dir/name.cfg`). */
export async function startHaproxy(
  dir: string,
  services: Balanced[],
  name = 'haproxy',
): Promise<ChildService> {
  const binary = [
    '/usr/sbin/haproxy',
    ...(process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'haproxy')),
  ].find((f) => existsSync(f));
  if (!binary)
    throw new CliError(
      'The fleet needs HAProxy: install it (`apt-get install haproxy`) or use docker-compose.fleet.yml.',
    );
  const file = path.join(dir, `${name}.cfg`);
  await writeFile(file, haproxyConfig(services));
  const log = path.join(dir, 'logs', `${name}.log`);
  return new ChildService(name, { file: binary, args: ['-f', file, '-db'] }, log);
}
