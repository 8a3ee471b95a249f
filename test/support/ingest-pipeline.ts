import { Test } from '@nestjs/testing';
import { loadConfig } from '@graph-history/config';
import { Db } from '@graph-history/db';
import { CoreModule } from '@graph-history/http';
import { GraphApplier } from '../../apps/ingestor/src/apply/graph-applier';
import { IngestPipelineModule } from '../../apps/ingestor/src/ingest-pipeline.module';
import { EventStore } from '../../apps/ingestor/src/ingest/event-store';
import { Trimmer } from '../../apps/ingestor/src/trim/trimmer';

export interface IngestPipeline {
  store: EventStore;
  applier: GraphApplier;
  trimmer: Trimmer;
}

/**
 * The ingestor's write path on `db`, wired by Nest exactly as in the ingestor but without HTTP or
 * Redis. `env` overrides settings (e.g. `{ APPLY_BATCH_SIZE: '50' }`); each call has its own
 * reducer-state cache, like a new process.
 */
export async function ingestPipeline(
  db: Db,
  env: Record<string, string> = {},
): Promise<IngestPipeline> {
  const module = await Test.createTestingModule({
    imports: [
      CoreModule.forRoot(loadConfig({ LOG_LEVEL: 'silent', ...env }), db),
      IngestPipelineModule,
    ],
  }).compile();
  return {
    store: module.get(EventStore),
    applier: module.get(GraphApplier),
    trimmer: module.get(Trimmer),
  };
}
