import { Selectable } from 'kysely';
import { WebhookEndpointsTable } from '../schema';
import { Repository } from './repository';
import { inTransaction } from './transaction';
import { GenerateSql } from '../sql-text/generate-sql';

export interface WebhookEndpointRow {
  endpointId: string;
  accountId: number;
  url: string;
  /** null: every notice type, also types added later. */
  types: string[] | null;
  /** null: every graph of the account. */
  graphKeys: string[] | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  disabled: number | null;
  disabledReason: string | null;
  failingSince: number | null;
  created: number;
}

export type NewWebhookEndpoint = Pick<
  WebhookEndpointRow,
  'endpointId' | 'accountId' | 'url' | 'types' | 'graphKeys' | 'secret' | 'created'
>;

const toRow = (r: Selectable<WebhookEndpointsTable>): WebhookEndpointRow => ({
  endpointId: r.endpoint_id,
  accountId: r.account_id,
  url: r.url,
  types: r.types,
  graphKeys: r.graph_keys,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousSecretUntil: r.previous_secret_until,
  disabled: r.disabled,
  disabledReason: r.disabled_reason,
  failingSince: r.failing_since,
  created: r.created,
});

/** An account's webhook endpoints (`graph-history webhooks …`). */
export class WebhookEndpointRepository extends Repository {
  @GenerateSql({
    params: [
      {
        endpointId: 'we1',
        accountId: 1,
        url: 'https://example.com/hook',
        types: null,
        graphKeys: null,
        secret: 's1',
        created: 1_000,
      },
    ],
  })
  async insert(e: NewWebhookEndpoint): Promise<void> {
    await this.db
      .insertInto('webhook_endpoints')
      .values({
        endpoint_id: e.endpointId,
        account_id: e.accountId,
        url: e.url,
        types: e.types,
        graph_keys: e.graphKeys,
        secret: e.secret,
        created: e.created,
      })
      .execute();
  }

  @GenerateSql({ params: ['we1'] })
  async findById(endpointId: string): Promise<WebhookEndpointRow | null> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  @GenerateSql({ params: [1] })
  async listByAccount(accountId: number): Promise<WebhookEndpointRow[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created')
      .orderBy('endpoint_id')
      .execute();
    return rows.map(toRow);
  }

  /** Deletes the endpoint with its deliveries and their attempts; false when there was none. */
  @GenerateSql({ params: ['we-none'] })
  async delete(endpointId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('webhook_endpoints')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** `secret` signs from now on; the current one also signs until `previousUntil`. */
  @GenerateSql({ params: ['we1', 's2', 9_000] })
  async rotateSecret(endpointId: string, secret: string, previousUntil: number): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_secret_until: previousUntil,
        secret,
      }))
      .where('endpoint_id', '=', endpointId)
      .execute();
  }

  /** Turns a disabled endpoint back on; its pending deliveries are tried again from now. */
  @GenerateSql({ params: ['we1', 2_000] })
  async enable(endpointId: string, now: number): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await trx
        .updateTable('webhook_endpoints')
        .set({ disabled: null, disabled_reason: null, failing_since: null })
        .where('endpoint_id', '=', endpointId)
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({ next_attempt: now })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .execute();
    });
  }
}
