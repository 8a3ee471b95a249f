import type { Config } from '@graph-history/config';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorHandler } from './client-errors';
import { limitConnections } from './connection-limits';
import { frameworkErrors } from './framework-errors';
import { connectionsWithinFileLimit } from './open-file-limit';
import { PathParams } from './path-params';
import { genReqId } from './request-id';
import { limitRequestsInFlight } from './requests-in-flight';
import { setSecurityHeaders } from './security-headers';
import { trustedProxy } from './trusted-proxy';

/** Longer than any URL Node accepts (16 KB of headers), so over-long ids reach the handlers. */
const MAX_PARAM_LENGTH = 16 * 1024;

export interface InstallOptions {
  /**
   * Whether `install` adds its own onSend hook for the Request-Id and security headers; false when
   * the app sets them in an onSend hook of its own (with setResponseHeaders), one hook per
   * response being cheaper.
   */
  responseHeadersHook?: boolean;
}

/** Every response carries `Request-Id: req_…` and the security headers. */
export function setResponseHeaders(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('Request-Id', req.id);
  setSecurityHeaders(reply);
}

/** How often Node checks the header and request timeouts of open connections. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export type ConnectionSettings = Pick<
  Config,
  | 'TRUST_PROXY'
  | 'HEADERS_TIMEOUT_MS'
  | 'REQUEST_TIMEOUT_MS'
  | 'KEEP_ALIVE_TIMEOUT_MS'
  | 'MAX_CONNECTIONS'
  | 'MAX_CLIENT_CONNECTIONS'
>;

export interface HttpOptions {
  /** Base of `doc_url` links. */
  docBase: string;
  bodyLimit?: number;
  /** TRUST_PROXY (which proxies may forward the client's address), timeouts and connection caps. */
  config: ConnectionSettings;
}

/**
 * The HTTP server both apps share. `adapterOptions` go to `new FastifyAdapter(...)`: our request
 * ids, no Fastify logger (pino-http logs), and whatever Node or the router refuse before a route
 * runs answered in the error envelope. X-Forwarded-For is believed only from trusted proxies (the
 * client is the right-most address no trusted proxy added), else clients could pick their address.
 * A request whose headers or whole self do not arrive within their timeouts is answered 408 (Node
 * reports it to `clientErrorHandler`) and its connection closed. `install` adds the shared hooks
 * and the connection caps to the instance; call it before routes are registered.
 */
export function fastifySetup({ docBase, bodyLimit = 1024 * 1024, config }: HttpOptions) {
  const params = new PathParams();
  const fromProxy = trustedProxy(config.TRUST_PROXY);
  const requestTimeout = config.REQUEST_TIMEOUT_MS;
  return {
    adapterOptions: {
      genReqId,
      bodyLimit,
      logger: false,
      trustProxy: config.TRUST_PROXY,
      requestTimeout,
      keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
      http: {
        headersTimeout: Math.min(config.HEADERS_TIMEOUT_MS, requestTimeout),
        requestTimeout,
        connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      },
      return503OnClosing: true,
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
      clientErrorHandler: clientErrorHandler(docBase),
      frameworkErrors: frameworkErrors(docBase, params),
    },
    install(app: FastifyInstance, { responseHeadersHook = true }: InstallOptions = {}): void {
      params.watch(app);
      limitConnections(app.server, {
        total: connectionsWithinFileLimit(config.MAX_CONNECTIONS),
        perAddress: config.MAX_CLIENT_CONNECTIONS,
        exempt: fromProxy,
      });
      if (config.TRUST_PROXY !== false)
        limitRequestsInFlight(app, {
          perClient: config.MAX_CLIENT_CONNECTIONS,
          viaProxy: fromProxy,
          docBase,
        });
      if (!responseHeadersHook) return;
      // callback style: no promise per response
      app.addHook('onSend', (req, reply, payload, done) => {
        setResponseHeaders(req, reply);
        done(null, payload);
      });
    },
  };
}
