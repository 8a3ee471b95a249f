import type { FastifyRequest } from 'fastify';
import { COST_UNIT_BYTES } from './request-cost';

const PAGE_BYTES = Symbol('pageBytes');
type BudgetedRequest = FastifyRequest & { [PAGE_BYTES]?: number };

/** Keeps on the request the bytes of stored JSON it may read, as paid for before it reads. */
export function setPageBytes(req: FastifyRequest, bytes: number): void {
  (req as BudgetedRequest)[PAGE_BYTES] = bytes;
}

/**
 * The bytes of stored JSON a request may read into one answer (pages end before the item that
 * would pass them; see FairShare): what it reserved, or one cost unit when it reserved nothing.
 */
export const pageBytesOf = (req: FastifyRequest): number =>
  (req as BudgetedRequest)[PAGE_BYTES] ?? COST_UNIT_BYTES;
