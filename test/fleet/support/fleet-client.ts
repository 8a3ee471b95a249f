import { createDb, Db } from '@graph-history/db';
import { KeyAdminService } from '@graph-history/cli/keys/key-admin.service';
import type { Fleet } from '@graph-history/cli/fleet/fleet';
import { waitFor } from '../../ingestor/support/ingestor-harness';

export interface Answer {
  status: number;
  etag: string | null;
  body: string;
}

export async function get(base: string, path: string, key: string): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
}

/** A gauge or counter of a replica's /metrics (the fleet's METRICS_TOKEN), or null if absent. */
export async function metric(base: string, name: string, token: string): Promise<number | null> {
  const { body } = await get(base, '/metrics', token);
  const line = body.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : null;
}

/** The primary database of the fleet, and new keys of an account on it. */
export class FleetAdmin {
  readonly db: Db;
  readonly keys: KeyAdminService;

  constructor(fleet: Fleet) {
    this.db = createDb(fleet.postgres.primaryUrl, { max: 2 });
    this.keys = new KeyAdminService(this.db);
  }

  async newKey(account = 'demo'): Promise<{ key: string; id: string }> {
    const created = await this.keys.create(account, null);
    return { key: created.key, id: created.id };
  }

  /** The graph's row once the primary has applied it through `seq`. */
  appliedThrough(graphKey: string, seq: number, timeoutMs = 20_000) {
    return waitFor(
      `${graphKey} applied through ${seq}`,
      async () => {
        const g = await this.db
          .selectFrom('graphs')
          .select(['graph_id', 'applied_seq'])
          .where('graph_key', '=', graphKey)
          .executeTakeFirst();
        return g && g.applied_seq >= seq ? g : undefined;
      },
      timeoutMs,
    );
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}

/** Each API replica's own address (behind HAProxy). */
export const replicaUrls = (fleet: Fleet): string[] =>
  fleet.apiPorts.map((p) => `http://127.0.0.1:${p}`);
