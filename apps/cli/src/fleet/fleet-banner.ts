import { graphPublicId } from '@graph-history/domain';
import { Fleet } from './fleet';

/** What `fleet` prints once every process answers. */
export function fleetBanner(f: Fleet, demoGraph: string): string {
  return [
    '',
    'The graph-history fleet is running.',
    `  Read API:  ${f.apiUrl}/api/v1   (HAProxy over ${f.apis.length} API replicas)`,
    `  Ingest:    ${f.ingestUrl}/ingest/v1/graphs/{graph_key}/events   (HAProxy over ${f.ingestors.length} ingestors)`,
    `  Postgres:  primary ${f.postgres.primaryUrl}, streaming replica ${f.postgres.replicaUrl}`,
    `  Redis:     Cluster of 3 masters + 3 replicas ${f.redis.nodes}`,
    `  Data/logs: ${f.dir} (removed when the fleet stops)`,
    '',
    `A "demo" account was created. Its secret key:`,
    '',
    `  ${f.key}`,
    '',
    `A simulated live share, ${graphPublicId(demoGraph)}, is being fed through the ingest port. Try:`,
    '',
    `  curl -H "Authorization: Bearer ${f.key}" ${f.apiUrl}/api/v1/graphs`,
    '',
    'Press Ctrl-C to stop everything.',
    '',
  ].join('\n');
}
