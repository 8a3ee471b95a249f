import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@graph-history/config';
import { CHECK_FALL, CHECK_INTER_MS, haproxyConfig } from '@graph-history/cli/fleet/haproxy';

/**
 * docker-compose.fleet.yml's wiring, checked without a container engine against the apps' own
 * config loader, entry points and HAProxy rules (`pnpm test:compose` starts it for real).
 */
interface Service {
  image?: string;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, unknown>;
  volumes?: string[];
  ports?: string[];
}

const root = path.join(__dirname, '..', '..');
/** The file as Compose reads it when no GH_* variable is set: `${NAME:-default}` is the default. */
const composeText = readFileSync(path.join(root, 'docker-compose.fleet.yml'), 'utf8').replace(
  /\$\{\w+:-([^}]*)\}/g,
  '$1',
);
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const names = Object.keys(services);
const words = (v: string | string[] | undefined) => (Array.isArray(v) ? v : (v ?? '').split(/\s+/));
/** What runs as `sh -c <script>`, with Compose's `$$` unescaped. */
const script = (s: Service) => (s.entrypoint?.[2] ?? '').replace(/\$\$/g, '$');
/** The image's commands (scripts/containers/image-entrypoint.sh) and the entry points they run. */
const IMAGE_COMMANDS: Record<string, string> = {
  api: 'apps/api/dist/main.js',
  ingestor: 'apps/ingestor/dist/main.js',
  'graph-history': 'apps/cli/dist/main.js',
};
const appEntry = (s: Service) => IMAGE_COMMANDS[words(s.command)[0] ?? ''];
const apps = names.filter((n) => appEntry(services[n]!));
const redisNodes = names.filter((n) => words(services[n]!.command).includes('redis-server'));
const hostOf = (url: string) => new URL(url).hostname;

describe('docker-compose.fleet.yml', () => {
  it('gives every service an image and depends only on services it defines', () => {
    for (const name of names) {
      expect({ name, image: services[name]!.image }).toEqual({ name, image: expect.any(String) });
      const deps = services[name]!.depends_on ?? [];
      for (const dep of Array.isArray(deps) ? deps : Object.keys(deps))
        expect(names).toContain(dep);
    }
  });

  it("runs the image's commands, as its entrypoint maps them to entry points", () => {
    const entrypoint = readFileSync(
      path.join(root, 'scripts/containers/image-entrypoint.sh'),
      'utf8',
    );
    for (const [command, entry] of Object.entries(IMAGE_COMMANDS))
      expect(entrypoint).toMatch(
        new RegExp(`^\\s*${command}\\) shift; exec node .*${entry} "\\$@"`, 'm'),
      );
    for (const name of names.filter((n) => services[n]!.image!.includes('graph-history')))
      expect({ name, entry: appEntry(services[name]!) }).toEqual({
        name,
        entry: expect.any(String),
      });
  });

  it('runs entry points the build produces, with settings the config loader accepts', () => {
    expect(apps.filter((n) => appEntry(services[n]!)!.includes('/api/'))).toHaveLength(3);
    expect(apps.filter((n) => appEntry(services[n]!)!.includes('/ingestor/'))).toHaveLength(2);
    for (const name of apps) {
      const s = services[name]!;
      const source = appEntry(s)!.replace('/dist/main.js', '/src/main.ts');
      expect({ name, source: existsSync(path.join(root, source)) }).toEqual({ name, source: true });
      const config = loadConfig(s.environment ?? {});
      // a set DATABASE_URL (else the app would start its own embedded Postgres in the container)
      expect(names).toContain(hostOf(config.DATABASE_URL!));
      if (name === 'migrate') continue;
      expect(config.HOST).toBe('0.0.0.0');
      for (const url of config.DATABASE_REPLICA_URLS ?? []) expect(names).toContain(hostOf(url));
      for (const node of config.REDIS_CLUSTER_NODES ?? [])
        expect({ node, redis: redisNodes.includes(node.host) && node.port === 6379 }).toEqual({
          node,
          redis: true,
        });
    }
    expect(words(services.migrate!.command).slice(-1)).toEqual(['migrate']);
  });

  it('makes a Redis Cluster of three masters with a replica each, named in REDIS_CLUSTER_NODES', () => {
    expect(redisNodes).toHaveLength(6);
    for (const n of redisNodes) expect(words(services[n]!.command)).toContain('--cluster-enabled');
    const create = script(services['redis-cluster']!);
    expect(create).toContain('redis-cli --cluster create');
    expect(create).toContain('--cluster-replicas 1');
    expect(create).toContain(
      `for n in ${redisNodes.map((n) => n.slice('redis-'.length)).join(' ')}`,
    );
    for (const name of apps.filter((n) => n !== 'migrate'))
      expect(
        loadConfig(services[name]!.environment!).REDIS_CLUSTER_NODES!.map((n) => n.host),
      ).toEqual(redisNodes);
  });

  it('streams WAL from the primary to the replica', () => {
    expect(words(services['postgres-primary']!.command)).toContain('wal_level=replica');
    expect(script(services['postgres-replica']!)).toMatch(
      /pg_basebackup -h postgres-primary .* -R -X stream/,
    );
  });

  it('has shell scripts that parse', () => {
    for (const name of names.filter((n) => script(services[n]!)))
      expect(() => execFileSync('sh', ['-n', '-c', script(services[name]!)])).not.toThrow();
  });

  it("balances every API and ingestor with HAProxy's rules of `pnpm fleet`, on the published ports", () => {
    const haproxy = services.haproxy!;
    const mount = haproxy.volumes!.find((v) => v.endsWith('/haproxy.cfg:ro'))!;
    const cfg = readFileSync(path.join(root, mount.split(':')[0]!), 'utf8');
    const servers = [...cfg.matchAll(/^\s*server \S+ ([\w-]+):(\d+) check$/gm)].map((m) => ({
      host: m[1]!,
      port: Number(m[2]),
    }));
    const expected = apps
      .filter((n) => n !== 'migrate')
      .map((n) => {
        const config = loadConfig(services[n]!.environment!);
        const api = appEntry(services[n]!)!.includes('/api/');
        return { host: n, port: api ? config.PORT : config.INGEST_PORT };
      });
    expect(servers.sort((a, b) => a.host.localeCompare(b.host))).toEqual(
      expected.sort((a, b) => a.host.localeCompare(b.host)),
    );
    expect(cfg).toContain(`inter ${CHECK_INTER_MS}ms fall ${CHECK_FALL}`);
    // the same timeouts (streams stay open through it: see haproxyConfig)
    const timeouts = haproxyConfig([])
      .split('\n')
      .filter((l) => l.trim().startsWith('timeout '));
    expect(timeouts.length).toBeGreaterThanOrEqual(4);
    for (const line of timeouts) expect(cfg.split('\n')).toContain(line);
    const binds = [...cfg.matchAll(/^\s*bind :(\d+)$/gm)].map((m) => m[1]);
    expect(haproxy.ports!.map((p) => p.split(':').at(-1))).toEqual(binds);
  });
});
