import type { FastifyReply } from 'fastify';
import type { ReadRequest } from './read-request';

/**
 * A read route's handler: its answer's body (JSON text, an object or a Buffer), or nothing once
 * it has answered on `reply` itself (a stream).
 */
export type ReadHandler = (r: ReadRequest, reply: FastifyReply) => Promise<unknown>;

export const READ_PATH = 'graph-history:read-path';

/**
 * GET (and HEAD) `path`, under the controller's path, answered by this method after ApiAccess
 * admitted the request: how every API route that needs a key is declared. ReadRoutes mounts it;
 * Nest's `@Header` sets headers of its answers, as on any route.
 */
export const Read =
  (path = '') =>
  <T extends ReadHandler>(
    _target: object,
    _key: string | symbol,
    d: TypedPropertyDescriptor<T>,
  ) => {
    Reflect.defineMetadata(READ_PATH, path, d.value!);
  };
