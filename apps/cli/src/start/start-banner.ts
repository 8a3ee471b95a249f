import path from 'node:path';
import { Config } from '@graph-history/config';
import { graphPublicId } from '@graph-history/domain';
import { AppProcess } from './app-process';
import { DemoAccess } from './demo-account';

export interface BannerInput {
  apiUrl: string;
  ingestUrl: string;
  embedded: boolean;
  /** Whether `start` runs its own redis-server. */
  ownRedis: boolean;
  config: Config;
  logDir: string;
  apps: AppProcess[];
  demo: DemoAccess | null;
  demoGraph: string | undefined;
}

/** What `start` prints once both apps answer: where things are and how to read the demo share. */
export function startBanner(b: BannerInput): string {
  const database = b.embedded
    ? `embedded Postgres on 127.0.0.1:${b.config.EMBEDDED_POSTGRES_PORT}, data in ${path.resolve(b.config.DATA_DIR, 'postgres')}`
    : `DATABASE_URL (${new URL(b.config.DATABASE_URL!).host})`;
  const redis = b.ownRedis
    ? `redis-server on 127.0.0.1:${b.config.EMBEDDED_REDIS_PORT}, data in ${path.resolve(b.config.DATA_DIR, 'redis')}`
    : new URL(b.config.REDIS_URL).host;
  const lines = [
    '',
    'graph-history is running.',
    `  Read API:  ${b.apiUrl}/api/v1   (start page: ${b.apiUrl}/, reference: ${b.apiUrl}/docs)`,
    `  Ingest:    ${b.ingestUrl}/ingest/v1/graphs/{graph_key}/events`,
    `  Database:  ${database}`,
    `  Redis:     ${redis}`,
    `  Logs:      ${b.apps.map((a) => a.logFile).join(', ')}`,
    '',
  ];
  if (b.demo) lines.push(...demoLines(b, b.demo));
  else lines.push('Create an API key with: pnpm exec graph-history keys create --account NAME', '');
  lines.push('Press Ctrl-C to stop.', '');
  return lines.join('\n');
}

function demoLines(b: BannerInput, demo: DemoAccess): string[] {
  const graphId = graphPublicId(b.demoGraph!);
  const story = demo.created
    ? '(10 minutes of history at once, then an event every second or two)'
    : '(its story goes on from now: an event every second or two)';
  const feed = [
    `A simulated live share, ${graphId}, is receiving agent activity now ${story}.`,
    `Open ${b.apiUrl}/graphs/${graphId} in a browser and sign in with the key in the "API key" field.`,
    '',
  ];
  if (demo.created) {
    return [
      `The database was empty, so a "demo" account was created. Its secret key (kept in ${demo.keyFile}):`,
      '',
      `  ${demo.key}`,
      '',
      'Try it:',
      '',
      `  curl -H "Authorization: Bearer ${demo.key}" ${b.apiUrl}/api/v1/graphs`,
      '',
      ...feed,
    ];
  }
  return [
    `The "demo" account's key is kept in ${demo.keyFile}. Read its share with:`,
    '',
    `  curl -H "Authorization: Bearer $(cat ${demo.keyFile})" ${b.apiUrl}/api/v1/graphs/${graphId}`,
    '',
    ...feed,
  ];
}
