import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorHandler } from './client-errors';
import { frameworkErrors } from './framework-errors';
import { PathParams } from './path-params';
import { genReqId } from './request-id';

/** Longer than any URL Node accepts (16 KB of headers), so over-long ids reach the handlers. */
const MAX_PARAM_LENGTH = 16 * 1024;

export interface InstallOptions {
  /**
   * Whether `install` adds its own onSend hook for the Request-Id header; false when the app sets
   * it in an onSend hook of its own (with setRequestIdHeader), one hook per response being cheaper.
   */
  requestIdHook?: boolean;
}

/** Every response carries `Request-Id: req_…`. */
export function setRequestIdHeader(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('Request-Id', req.id);
}

export interface HttpOptions {
  /** Base of `doc_url` links. */
  docBase: string;
  bodyLimit?: number;
  /** TRUST_PROXY: hops to trust, or the proxies' addresses/CIDRs (false: none). */
  trustProxy: false | number | string[];
}

/**
 * The HTTP server both apps share. `adapterOptions` go to `new FastifyAdapter(...)`: our request
 * ids, no Fastify logger (pino-http logs), and whatever Node or the router refuse before a route
 * runs answered in the error envelope. X-Forwarded-For is believed only from trusted proxies (the
 * client is the right-most address no trusted proxy added), else clients could pick their address.
 * `install` adds the shared hooks to the instance; call it before routes are registered.
 */
export function fastifySetup({ docBase, bodyLimit = 1024 * 1024, trustProxy }: HttpOptions) {
  const params = new PathParams();
  return {
    adapterOptions: {
      genReqId,
      bodyLimit,
      logger: false,
      trustProxy,
      return503OnClosing: true,
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
      clientErrorHandler: clientErrorHandler(docBase),
      frameworkErrors: frameworkErrors(docBase, params),
    },
    install(app: FastifyInstance, { requestIdHook = true }: InstallOptions = {}): void {
      params.watch(app);
      if (!requestIdHook) return;
      // callback style: no promise per response
      app.addHook('onSend', (req, reply, payload, done) => {
        setRequestIdHeader(req, reply);
        done(null, payload);
      });
    },
  };
}
