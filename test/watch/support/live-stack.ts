import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WatchRunOptions } from '@graph-history/cli/watch/watch-runner';
import { ProjectGraphKeys } from '@graph-history/cli/watch/project-graph-keys';
import { type TestDatabase, createTestDatabase } from '../../support/test-database';
import { type TestKey, createKey } from '../../ingestor/support/api-keys';
import { deleteQueueKeys, uniqueQueuePrefix } from '../../ingestor/support/ingestor-harness';
import { twoFreePorts } from '../../support/free-port';
import { ServiceProcess } from '../../support/service-process';

/** The graph key watch gives `project` with the data folder of `watchOptions(tmp, …)`. */
export const watchGraphKey = (tmp: string, project: string): Promise<string> =>
  new ProjectGraphKeys(join(tmp, 'data')).keyFor(project);

export interface ApiNode {
  id: string;
  provider_ref: string;
  kind: string;
  state: string;
  created: number;
  ended: number | null;
  last_event: number;
  parent_id: string | null;
  spawn_call_id: string | null;
  agent_type: string | null;
  title: string | null;
  attention: unknown;
}

export interface ApiEvent {
  id: string;
  type: string;
  created: number;
  node_id: string;
}

/**
 * The BUILT ingestor and read API (`pnpm build` first) on a fresh database, with a secret key:
 * what a `watch` writes to and what a reader sees.
 */
export class LiveStack {
  private constructor(
    readonly t: TestDatabase,
    readonly key: TestKey,
    readonly ingestor: ServiceProcess,
    readonly api: ServiceProcess,
    private readonly queuePrefix: string,
  ) {}

  static async start(name: string): Promise<LiveStack> {
    const t = await createTestDatabase();
    const key = await createKey(t.db, name);
    const queuePrefix = uniqueQueuePrefix();
    const env = { DATABASE_URL: t.url, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn' };
    const [ingestPort, apiPort] = await twoFreePorts();
    const ingestor = await ServiceProcess.start('ingestor', ingestPort, {
      ...env,
      INGEST_PORT: String(ingestPort),
    });
    const api = await ServiceProcess.start('api', apiPort, {
      ...env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
    });
    return new LiveStack(t, key, ingestor, api, queuePrefix);
  }

  /**
   * For a `describe` block: starts the stack and a temporary folder before its tests and removes
   * both after them. Read `stack` and `tmp` inside the tests.
   */
  static forSuite(name: string): { readonly stack: LiveStack; readonly tmp: string } {
    let stack: LiveStack | undefined;
    let tmp: string | undefined;
    beforeAll(async () => {
      stack = await LiveStack.start(name);
      tmp = mkdtempSync(join(tmpdir(), `gh-${name}-`));
    }, 90_000);
    afterAll(async () => {
      await stack?.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });
    return {
      get stack() {
        return stack!;
      },
      get tmp() {
        return tmp!;
      },
    };
  }

  /** Options of a live watch of `<tmp>/projects/<project>` into this stack. */
  watchOptions(
    tmp: string,
    project: string,
    extra: Partial<WatchRunOptions> = {},
  ): WatchRunOptions {
    return {
      projectsDir: join(tmp, 'projects'),
      projectDir: join(tmp, 'projects', project),
      url: this.ingestor.baseUrl,
      key: this.key.key,
      once: false,
      fromStart: false,
      pollMs: 100,
      dataDir: join(tmp, 'data'),
      viewerBase: this.api.baseUrl,
      ...extra,
    };
  }

  async stop(): Promise<void> {
    await this.ingestor.stop();
    await this.api.stop();
    await deleteQueueKeys(this.queuePrefix);
    await this.t.drop();
  }

  /** A read-API GET; a 429 (tests poll fast) waits `Retry-After` and asks again, a few times. */
  async read<T>(path: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.api.baseUrl}/api/v1${path}`, {
        headers: { authorization: this.key.auth },
      });
      if (res.status === 429 && attempt < 5) {
        const wait = Number(res.headers.get('retry-after') ?? 1);
        await new Promise((resolve) => setTimeout(resolve, (wait || 1) * 1_000));
        continue;
      }
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    }
  }

  /** Every node of a graph (up to 1,000). */
  /** Every node of a graph now, following `has_more` (a page may end early: tokens, bytes). */
  async nodes(graph: string): Promise<ApiNode[]> {
    return this.everyPage<ApiNode>(`/graphs/gph_${graph}/nodes?limit=1000`);
  }

  /** Every retained event of a graph, oldest first. */
  async events(graph: string): Promise<ApiEvent[]> {
    return this.everyPage<ApiEvent>(`/graphs/gph_${graph}/events?order=asc&limit=1000`);
  }

  /** Every item of the list at `path`, page after page. */
  private async everyPage<T extends { id: string }>(path: string): Promise<T[]> {
    const out: T[] = [];
    for (;;) {
      const after = out.length > 0 ? `&starting_after=${out[out.length - 1]!.id}` : '';
      const page = await this.read<{ data: T[]; has_more: boolean }>(`${path}${after}`);
      out.push(...page.data);
      if (!page.has_more) return out;
    }
  }

  async until<T>(
    what: string,
    probe: () => Promise<T | undefined>,
    timeoutMs = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}\ningestor:\n${this.ingestor.logs()}\napi:\n${this.api.logs()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
