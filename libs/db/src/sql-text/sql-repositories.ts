import type { Db } from '../connection';
import { AccountQuotaRepository } from '../repositories/account-quota.repository';
import { AccountRepository } from '../repositories/account.repository';
import { ApiKeyRepository } from '../repositories/api-key.repository';
import { ApplyRepository } from '../repositories/apply.repository';
import { DatabaseHealthRepository } from '../repositories/database-health.repository';
import { EventReadRepository } from '../repositories/event-read.repository';
import { GraphApplyLockRepository } from '../repositories/graph-apply-lock.repository';
import { GraphReadRepository } from '../repositories/graph-read.repository';
import { GraphStateRepository } from '../repositories/graph-state.repository';
import { GraphWriteRepository } from '../repositories/graph-write.repository';
import { HookKeyRepository } from '../repositories/hook-key.repository';
import { loadIdKey } from '../repositories/id-key.repository';
import { InboxRepository } from '../repositories/inbox.repository';
import { NodeItemsRepository } from '../repositories/node-items.repository';
import { NodeReadRepository } from '../repositories/node-read.repository';
import { NodeRefRepository } from '../repositories/node-ref.repository';
import { NoticeRepository } from '../repositories/notice.repository';
import { PendingWorkRepository } from '../repositories/pending-work.repository';
import { ReplicaProgressRepository } from '../repositories/replica-progress.repository';
import { StalledGraphRepository } from '../repositories/stalled-graph.repository';
import { TrimRepository } from '../repositories/trim.repository';
import { ViewerSessionRepository } from '../repositories/viewer-session.repository';
import { WebhookDeliveryRepository } from '../repositories/webhook-delivery.repository';
import { WebhookEndpointRepository } from '../repositories/webhook-endpoint.repository';

/**
 * A repository file: its class (whose methods carry the examples), or, for a file of functions
 * that take only the Db, those functions by name.
 */
export type SqlRepository = {
  /** Its source file in libs/db/src/repositories and SQL file in libs/db/sql, without extension. */
  file: string;
} & (
  | { repository: new (db: Db) => object }
  | { functions: Record<string, (db: Db) => Promise<unknown>> }
);

/**
 * Every repository, in the order `pnpm sql:sync` runs them on one fresh database (an example
 * may use rows an earlier one wrote: graph 1 and account 1 are made first).
 */
export const SQL_REPOSITORIES: SqlRepository[] = [
  { file: 'account.repository', repository: AccountRepository },
  { file: 'account-quota.repository', repository: AccountQuotaRepository },
  { file: 'api-key.repository', repository: ApiKeyRepository },
  { file: 'viewer-session.repository', repository: ViewerSessionRepository },
  { file: 'graph-write.repository', repository: GraphWriteRepository },
  { file: 'graph-apply-lock.repository', repository: GraphApplyLockRepository },
  { file: 'inbox.repository', repository: InboxRepository },
  { file: 'graph-state.repository', repository: GraphStateRepository },
  { file: 'apply.repository', repository: ApplyRepository },
  { file: 'node-ref.repository', repository: NodeRefRepository },
  { file: 'graph-read.repository', repository: GraphReadRepository },
  { file: 'event-read.repository', repository: EventReadRepository },
  { file: 'node-read.repository', repository: NodeReadRepository },
  { file: 'node-items.repository', repository: NodeItemsRepository },
  { file: 'hook-key.repository', repository: HookKeyRepository },
  { file: 'notice.repository', repository: NoticeRepository },
  { file: 'webhook-endpoint.repository', repository: WebhookEndpointRepository },
  { file: 'webhook-delivery.repository', repository: WebhookDeliveryRepository },
  { file: 'pending-work.repository', repository: PendingWorkRepository },
  { file: 'stalled-graph.repository', repository: StalledGraphRepository },
  { file: 'trim.repository', repository: TrimRepository },
  { file: 'replica-progress.repository', repository: ReplicaProgressRepository },
  { file: 'database-health.repository', repository: DatabaseHealthRepository },
  { file: 'id-key.repository', functions: { loadIdKey } },
];

/** Public repository methods that send no SQL of their own (`Repository.method`). */
export const SENDS_NO_SQL: string[] = [];
