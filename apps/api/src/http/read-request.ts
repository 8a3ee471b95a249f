import type { FastifyRequest } from 'fastify';
import type { Principal } from '@graph-history/http';
import { QueryParams } from '../query/query-params';
import { pageBytesOf } from '../rate-limit/page-budget';

/** What a read route takes from its request: who asks (ApiAccess), its path and its query. */
export interface ReadRequest {
  principal: Principal;
  params: Readonly<Record<string, string | undefined>>;
  query: QueryParams;
  /** Bytes of stored JSON its lists may hold, as paid for before the read (see FairShare). */
  maxBytes: number;
}

type AdmittedRequest = FastifyRequest & { principal?: Principal };

/** The read request of a request that ApiAccess admitted. */
export function readRequestOf(req: FastifyRequest): ReadRequest {
  const principal = (req as AdmittedRequest).principal;
  if (!principal) throw new Error('a read route without ApiAccess');
  return {
    principal,
    params: req.params as Record<string, string>,
    query: new QueryParams(req.url),
    maxBytes: pageBytesOf(req),
  };
}
