import { Module } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  AccountQuotaRepository,
  ApplyRepository,
  Db,
  GraphApplyLockRepository,
  GraphStateRepository,
  GraphWriteRepository,
  InboxRepository,
  NodeRefRepository,
  NoticeRepository,
  PendingWorkRepository,
  Transactions,
  TrimRepository,
} from '@graph-history/db';
import { CONFIG, DB, repositoryProvider } from '@graph-history/http';
import { GraphApplier } from './apply/graph-applier';
import { GraphStateCache } from './apply/graph-state-cache';
import { NoticeMaker } from './apply/notice-maker';
import { EventStore } from './ingest/event-store';
import { AccountLimits } from './quota/account-limits';
import { QuotaGuard } from './quota/quota-guard';
import { Trimmer } from './trim/trimmer';
import { modelPricesOf } from './apply/model-prices-file';
import { MODEL_PRICES } from './tokens';

/**
 * The ingestor's write path without HTTP or queues: store a batch (EventStore) within the
 * account's quotas (QuotaGuard, AccountLimits), apply what is stored (GraphApplier), delete what
 * retention cut off (Trimmer). Needs CoreModule (CONFIG, DB).
 */
@Module({
  providers: [
    ...[
      InboxRepository,
      NodeRefRepository,
      GraphWriteRepository,
      ApplyRepository,
      GraphStateRepository,
      TrimRepository,
      PendingWorkRepository,
      GraphApplyLockRepository,
      AccountQuotaRepository,
      NoticeRepository,
    ].map(repositoryProvider),
    { provide: Transactions, useFactory: (db: Db) => new Transactions(db), inject: [DB] },
    {
      provide: GraphStateCache,
      useFactory: (c: Config) => new GraphStateCache(c.APPLY_STATE_CACHE_GRAPHS),
      inject: [CONFIG],
    },
    { provide: MODEL_PRICES, useFactory: modelPricesOf, inject: [CONFIG] },
    AccountLimits,
    QuotaGuard,
    EventStore,
    NoticeMaker,
    GraphApplier,
    Trimmer,
  ],
  exports: [EventStore, GraphApplier, Trimmer, PendingWorkRepository, AccountLimits],
})
export class IngestPipelineModule {}
