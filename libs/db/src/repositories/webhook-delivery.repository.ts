import { sql } from 'kysely';
import { Repository } from './repository';
import { inTransaction } from './transaction';
import { GenerateSql } from '../sql-text/generate-sql';

/** A delivery a sender holds (leased): what to POST, where, and the secrets that sign it. */
export interface ClaimedDelivery {
  deliveryId: number;
  endpointId: string;
  accountId: number;
  url: string;
  noticeId: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The current secret, then the previous one while its overlap lasts. */
  secrets: string[];
}

/** What one attempt found: a status code (any) or an error before one. */
export interface AttemptResult {
  started: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export interface AttemptPolicy {
  /** Delay before each retry, in ms; after the last the delivery has failed. */
  retrySchedule: readonly number[];
  /** An endpoint failing (no 2xx) for this long is disabled. */
  disableAfterMs: number;
}

export interface RecordedAttempt {
  outcome: 'delivered' | 'retry' | 'failed' | 'gone';
  /** This attempt disabled its endpoint (log it once). */
  disabledEndpoint: boolean;
}

export interface DeliveryRow {
  deliveryId: number;
  noticeId: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttempt: number | null;
  created: number;
  finished: number | null;
}

export interface AttemptRow extends AttemptResult {
  deliveryId: number;
  noticeId: string;
  attemptNo: number;
}

const isSuccess = (r: AttemptResult) =>
  r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/**
 * Webhook deliveries: made from notices by `dispatch`, taken by senders with a lease (`claimDue`),
 * closed or rescheduled by `recordAttempt`. Statements that pick rows skip rows other processes
 * hold (`for update skip locked`), so any number of ingestors run them side by side.
 */
export class WebhookDeliveryRepository extends Repository {
  /**
   * Turns up to `limit` undispatched notices into one delivery per enabled endpoint of their
   * account that wants their type and graph (endpoints made later get none of them), and marks them
   * dispatched, in ONE statement: a notice is dispatched once, with all its deliveries, or not yet.
   */
  @GenerateSql({ params: [100, 2_000] })
  async dispatch(limit: number, now: number): Promise<{ notices: number; deliveries: number }> {
    const { rows } = await sql<{ notices: number; deliveries: number }>`
      with picked as (
        select account_id, notice_no, graph_id, type, created, body from notices
        where not dispatched order by notice_no limit ${limit} for update skip locked
      ), marked as (
        update notices n set dispatched = true from picked p
        where n.account_id = p.account_id and n.notice_no = p.notice_no
      ), made as (
        insert into webhook_deliveries (endpoint_id, notice_no, notice_id, body, next_attempt, created)
        select e.endpoint_id, p.notice_no, coalesce(p.body::jsonb ->> 'id', 'ntc_' || p.notice_no),
          p.body, ${now}::bigint, ${now}::bigint
        from picked p
        join webhook_endpoints e on e.account_id = p.account_id
        left join graph_directory g on g.graph_id = p.graph_id
        where e.disabled is null
          and (e.types is null or p.type = any (e.types))
          and (e.graph_keys is null or g.graph_key = any (e.graph_keys))
        order by p.notice_no, e.endpoint_id
        on conflict do nothing
        returning 1
      )
      select (select count(*) from picked)::int as notices, (select count(*) from made)::int as deliveries
    `.execute(this.db);
    return rows[0]!;
  }

  /** A delivery of `body` (a test notice) to the endpoint, due now; its id. */
  @GenerateSql({ params: ['we1', 'ntc_test', '{}', 2_000] })
  async insertTest(endpointId: string, noticeId: string, body: string, now: number) {
    const row = await this.db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: endpointId,
        notice_id: noticeId,
        body,
        next_attempt: now,
        created: now,
      })
      .returning('delivery_id')
      .executeTakeFirstOrThrow();
    return row.delivery_id;
  }

  /**
   * Leases up to `limit` pending deliveries that are due (or the one `deliveryId`, due or not) of
   * enabled endpoints until `now + leaseMs`, oldest due first.
   */
  @GenerateSql(
    { params: [10, 2_000, 30_000] },
    { name: 'one delivery', params: [1, 2_000, 30_000, 1] },
  )
  async claimDue(
    limit: number,
    now: number,
    leaseMs: number,
    deliveryId?: number,
  ): Promise<ClaimedDelivery[]> {
    const due =
      deliveryId === undefined ? sql`d.next_attempt <= ${now}` : sql`d.delivery_id = ${deliveryId}`;
    const { rows } = await sql<{
      delivery_id: number;
      endpoint_id: string;
      account_id: number;
      url: string;
      notice_id: string;
      body: string;
      attempts: number;
      secret: string;
      previous_secret: string | null;
      previous_secret_until: number | null;
    }>`
      with picked as (
        select d.delivery_id from webhook_deliveries d
        join webhook_endpoints e on e.endpoint_id = d.endpoint_id
        where d.status = 'pending' and ${due}
          and (d.lease_until is null or d.lease_until < ${now}) and e.disabled is null
        order by d.next_attempt limit ${limit}
        for update of d skip locked
      )
      update webhook_deliveries d set lease_until = ${now + leaseMs}::bigint
      from picked, webhook_endpoints e
      where d.delivery_id = picked.delivery_id and e.endpoint_id = d.endpoint_id
      returning d.delivery_id, d.endpoint_id, e.account_id, e.url, d.notice_id, d.body, d.attempts,
        e.secret, e.previous_secret, e.previous_secret_until
    `.execute(this.db);
    return rows.map((r) => ({
      deliveryId: r.delivery_id,
      endpointId: r.endpoint_id,
      accountId: r.account_id,
      url: r.url,
      noticeId: r.notice_id,
      body: r.body,
      attempts: r.attempts,
      secrets:
        r.previous_secret !== null && (r.previous_secret_until ?? 0) > now
          ? [r.secret, r.previous_secret]
          : [r.secret],
    }));
  }

  /**
   * Records an attempt of a claimed delivery and what follows in one transaction: delivered on a
   * 2xx; else the next retry of `policy.retrySchedule`, or failed after the last. The endpoint's
   * failing spell starts at its first failure and ends at a success; one that lasted
   * `policy.disableAfterMs` disables it. `gone`: the delivery was no longer pending (or deleted).
   */
  @GenerateSql({
    params: [
      { deliveryId: 1, endpointId: 'we1' },
      { started: 2_000, durationMs: 5, statusCode: 200, error: null },
      { retrySchedule: [1_000], disableAfterMs: 60_000 },
      2_010,
    ],
  })
  async recordAttempt(
    delivery: Pick<ClaimedDelivery, 'deliveryId' | 'endpointId'>,
    result: AttemptResult,
    policy: AttemptPolicy,
    now: number,
  ): Promise<RecordedAttempt> {
    return inTransaction(this.db, async (trx) => {
      // the endpoint first, as deleting it does (then its deliveries): no deadlock between the two
      const endpoint = await trx
        .selectFrom('webhook_endpoints')
        .select(['disabled', 'failing_since'])
        .where('endpoint_id', '=', delivery.endpointId)
        .forNoKeyUpdate()
        .executeTakeFirst();
      const current = await trx
        .selectFrom('webhook_deliveries')
        .select('attempts')
        .where('delivery_id', '=', delivery.deliveryId)
        .where('status', '=', 'pending')
        .forUpdate()
        .executeTakeFirst();
      if (!current || !endpoint) return { outcome: 'gone', disabledEndpoint: false };
      const attemptNo = current.attempts + 1;
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.deliveryId,
          attempt_no: attemptNo,
          started: result.started,
          duration_ms: Math.round(result.durationMs),
          status_code: result.statusCode,
          error: result.error,
        })
        .execute();
      const delay = policy.retrySchedule[attemptNo - 1];
      const outcome = isSuccess(result) ? 'delivered' : delay === undefined ? 'failed' : 'retry';
      await trx
        .updateTable('webhook_deliveries')
        .set({
          attempts: attemptNo,
          lease_until: null,
          status: outcome === 'retry' ? 'pending' : outcome,
          ...(outcome === 'retry' ? { next_attempt: now + delay! } : { finished: now }),
        })
        .where('delivery_id', '=', delivery.deliveryId)
        .execute();
      if (outcome === 'delivered') {
        await trx
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('endpoint_id', '=', delivery.endpointId)
          .where('failing_since', 'is not', null)
          .execute();
        return { outcome, disabledEndpoint: false };
      }
      const failingSince = endpoint.failing_since ?? result.started;
      const disable = endpoint.disabled === null && now - failingSince >= policy.disableAfterMs;
      await trx
        .updateTable('webhook_endpoints')
        .set({
          failing_since: failingSince,
          ...(disable && { disabled: now, disabled_reason: disabledReason(policy.disableAfterMs) }),
        })
        .where('endpoint_id', '=', delivery.endpointId)
        .execute();
      return { outcome, disabledEndpoint: disable };
    });
  }

  /** Deletes up to `limit` deliveries (with their attempts) that finished before `before`. */
  @GenerateSql({ params: [3_000, 100] })
  async deleteFinished(before: number, limit: number): Promise<number> {
    const res = await this.db
      .deleteFrom('webhook_deliveries')
      .where(
        'delivery_id',
        'in',
        this.db
          .selectFrom('webhook_deliveries')
          .select('delivery_id')
          .where('status', '<>', 'pending')
          .where('finished', '<', before)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** The endpoint's newest deliveries, newest first. */
  @GenerateSql({ params: ['we1', 50] })
  async listByEndpoint(endpointId: string, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select([
        'delivery_id',
        'notice_id',
        'status',
        'attempts',
        'next_attempt',
        'created',
        'finished',
      ])
      .where('endpoint_id', '=', endpointId)
      .orderBy('delivery_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      deliveryId: r.delivery_id,
      noticeId: r.notice_id,
      status: r.status,
      attempts: r.attempts,
      nextAttempt: r.status === 'pending' ? r.next_attempt : null,
      created: r.created,
      finished: r.finished,
    }));
  }

  /** The attempts of the endpoint's newest `limit` attempts, newest first. */
  @GenerateSql({ params: ['we1', 50] })
  async attemptsOfEndpoint(endpointId: string, limit: number): Promise<AttemptRow[]> {
    const rows = await this.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.delivery_id', 'a.delivery_id')
      .select([
        'a.delivery_id',
        'd.notice_id',
        'a.attempt_no',
        'a.started',
        'a.duration_ms',
        'a.status_code',
        'a.error',
      ])
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('a.started', 'desc')
      .orderBy('a.delivery_id', 'desc')
      .orderBy('a.attempt_no', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      deliveryId: r.delivery_id,
      noticeId: r.notice_id,
      attemptNo: r.attempt_no,
      started: r.started,
      durationMs: r.duration_ms,
      statusCode: r.status_code,
      error: r.error,
    }));
  }
}

const disabledReason = (ms: number) =>
  `every attempt failed for ${Math.round(ms / 1000)} s or more`;
