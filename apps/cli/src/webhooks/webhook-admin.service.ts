import { randomBytes } from 'node:crypto';
import { Config } from '@graph-history/config';
import {
  AccountRepository,
  AttemptRow,
  Db,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  WebhookEndpointRow,
} from '@graph-history/db';
import {
  generateWebhookSecret,
  graphKeyFromId,
  isNoticeType,
  NOTICE_TYPES,
} from '@graph-history/domain';
import {
  checkWebhookUrl,
  deliveryLeaseMs,
  SentDelivery,
  WebhookSender,
  WebhookSettings,
  WebhookUrlError,
} from '@graph-history/http';
import { CliError } from '../cli-error';
import { existingAccount } from '../accounts/existing-account';

export type WebhookAdminSettings = WebhookSettings & Pick<Config, 'WEBHOOK_SECRET_OVERLAP'>;

export interface NewEndpoint {
  url: string;
  /** null: every notice type. */
  types: string[] | null;
  /** Graph ids (`gph_…`); null: every graph of the account. */
  graphIds: string[] | null;
}

/** What a test delivery's first attempt found. */
export interface TestOutcome {
  noticeId: string;
  sent: SentDelivery | null;
}

/** `graph-history webhooks …`: an account's endpoints, their secrets and their deliveries. */
export class WebhookAdminService {
  private readonly accounts: AccountRepository;
  private readonly endpoints: WebhookEndpointRepository;
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(
    db: Db,
    private readonly settings: WebhookAdminSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.accounts = new AccountRepository(db);
    this.endpoints = new WebhookEndpointRepository(db);
    this.deliveries = new WebhookDeliveryRepository(db);
  }

  /** Checks the URL (resolving its host) and makes the endpoint; its secret is returned once. */
  async create(accountName: string, e: NewEndpoint): Promise<WebhookEndpointRow> {
    const account = await existingAccount(this.accounts, accountName);
    const types = e.types === null ? null : checkTypes(e.types);
    const graphKeys = e.graphIds === null ? null : toGraphKeys(e.graphIds);
    await checkWebhookUrl(e.url, this.settings.WEBHOOK_ALLOW_PRIVATE_URLS).catch((err: unknown) => {
      throw err instanceof WebhookUrlError ? new CliError(`--url: ${err.message}.`) : err;
    });
    const endpointId = `we_${randomBytes(12).toString('hex')}`;
    await this.endpoints.insert({
      endpointId,
      accountId: account.accountId,
      url: new URL(e.url).toString(),
      types,
      graphKeys,
      secret: generateWebhookSecret(),
      created: this.now(),
    });
    return (await this.endpoints.findById(endpointId))!;
  }

  async list(accountName: string): Promise<WebhookEndpointRow[]> {
    const account = await existingAccount(this.accounts, accountName);
    return this.endpoints.listByAccount(account.accountId);
  }

  async delete(endpointId: string): Promise<WebhookEndpointRow> {
    const endpoint = await this.existing(endpointId);
    await this.endpoints.delete(endpointId);
    return endpoint;
  }

  /** A new secret signs from now on; the old one also signs for WEBHOOK_SECRET_OVERLAP. */
  async rotateSecret(endpointId: string): Promise<WebhookEndpointRow> {
    await this.existing(endpointId);
    await this.endpoints.rotateSecret(
      endpointId,
      generateWebhookSecret(),
      this.now() + this.settings.WEBHOOK_SECRET_OVERLAP,
    );
    return (await this.endpoints.findById(endpointId))!;
  }

  async enable(endpointId: string): Promise<WebhookEndpointRow> {
    await this.existing(endpointId);
    await this.endpoints.enable(endpointId, this.now());
    return (await this.endpoints.findById(endpointId))!;
  }

  /**
   * Sends a `webhook.test` notice to the endpoint now and records the attempt like any other
   * (a failed one is retried by the ingestor on the retry schedule).
   */
  async test(endpointId: string): Promise<TestOutcome> {
    const endpoint = await this.existing(endpointId);
    if (endpoint.disabled !== null)
      throw new CliError(
        `${endpointId} is disabled; turn it back on with \`webhooks enable ${endpointId}\`.`,
      );
    const now = this.now();
    const noticeId = `ntc_test_${randomBytes(12).toString('hex')}`;
    const body = JSON.stringify({
      id: noticeId,
      object: 'notice',
      type: 'webhook.test',
      created: now,
      endpoint_id: endpointId,
    });
    const deliveryId = await this.deliveries.insertTest(endpointId, noticeId, body, now);
    const [claimed] = await this.deliveries.claimDue(
      1,
      now,
      deliveryLeaseMs(this.settings),
      deliveryId,
    );
    if (!claimed) return { noticeId, sent: null }; // an ingestor took it first
    const sender = new WebhookSender(this.deliveries, this.settings, () => undefined, this.now);
    return { noticeId, sent: await sender.send(claimed) };
  }

  /** The endpoint's newest delivery attempts, newest first. */
  async attempts(endpointId: string, limit: number): Promise<AttemptRow[]> {
    await this.existing(endpointId);
    return this.deliveries.attemptsOfEndpoint(endpointId, limit);
  }

  private async existing(endpointId: string): Promise<WebhookEndpointRow> {
    const endpoint = await this.endpoints.findById(endpointId);
    if (!endpoint)
      throw new CliError(
        `No webhook endpoint has the id ${JSON.stringify(endpointId)}; see \`webhooks list --account NAME\` for ids.`,
      );
    return endpoint;
  }
}

function checkTypes(types: string[]): string[] {
  const unknown = types.find((t) => !isNoticeType(t));
  if (unknown !== undefined || types.length === 0)
    throw new CliError(
      `--types: ${JSON.stringify(unknown ?? '')} is not a notice type; use some of ${NOTICE_TYPES.join(', ')}.`,
    );
  return [...new Set(types)];
}

function toGraphKeys(graphIds: string[]): string[] {
  return [
    ...new Set(
      graphIds.map((id) => {
        const key = graphKeyFromId(id);
        if (key === null)
          throw new CliError(`--graph: ${JSON.stringify(id)} is not a graph id (gph_…).`);
        return key;
      }),
    ),
  ];
}
