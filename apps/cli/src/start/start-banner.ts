import path from 'node:path';
import { Config } from '@graph-history/config';
import { graphPublicId } from '@graph-history/domain';
import { CreatedKey } from '../keys/key-admin.service';
import { AppProcess } from './app-process';

export interface BannerInput {
  apiUrl: string;
  ingestUrl: string;
  embedded: boolean;
  config: Config;
  logDir: string;
  apps: AppProcess[];
  demo: CreatedKey | null;
  demoGraph: string | undefined;
}

/** What `start` prints once both apps answer: where things are and, on a new database, how to try it. */
export function startBanner(b: BannerInput): string {
  const database = b.embedded
    ? `embedded Postgres on 127.0.0.1:${b.config.EMBEDDED_POSTGRES_PORT}, data in ${path.resolve(b.config.DATA_DIR, 'postgres')}`
    : `DATABASE_URL (${new URL(b.config.DATABASE_URL!).host})`;
  const lines = [
    '',
    'graph-history is running.',
    `  Read API:  ${b.apiUrl}/api/v1   (reference: ${b.apiUrl}/docs)`,
    `  Ingest:    ${b.ingestUrl}/ingest/v1/graphs/{graph_key}/events`,
    `  Database:  ${database}`,
    `  Logs:      ${b.apps.map((a) => a.logFile).join(', ')}`,
    '',
  ];
  if (b.demo) {
    lines.push(
      `The database was empty, so a "${b.demo.account}" account was created. Its secret key, shown only once:`,
      '',
      `  ${b.demo.key}`,
      '',
      'Try it:',
      '',
      `  curl -H "Authorization: Bearer ${b.demo.key}" ${b.apiUrl}/api/v1/graphs`,
      '',
      `A simulated live share, ${graphPublicId(b.demoGraph!)}, is receiving agent activity now (10 minutes of`,
      'history at once, then an event every second or two).',
      '',
    );
  } else {
    lines.push('Create an API key with: pnpm graph-history keys create --account NAME', '');
  }
  lines.push('Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
