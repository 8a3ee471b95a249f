import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '@graph-history/config';
import { answerWithEnvelope, CONFIG } from '@graph-history/http';
import { publicBaseUrl } from '../public-urls';
import { ApiAccess } from './api-access';
import { ReadRequest, readRequestOf } from './read-request.decorator';

/**
 * Read routes registered on Fastify directly, for the reads clients poll most (a graph, a node):
 * Nest's per-request pipeline (guard, parameter pipes, interceptor and response layers, a dozen
 * promises) costs about a tenth of such a read's CPU. They answer exactly as a controller route
 * would: the same access check (ApiAccess, as ApiAccessGuard), the Content-Type set at the same
 * point as `@Header`, the same error envelope and log (answerWithEnvelope, as the exception
 * filter), and Fastify's hooks (Request-Id, the fair share's charge, the ETag) apply alike. Call
 * `get` from a provider's onModuleInit, after Nest's routes and before the server listens.
 */
@Injectable()
export class DirectReadRoutes {
  private readonly docBase: string;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly access: ApiAccess,
    @Inject(CONFIG) config: Config,
  ) {
    this.docBase = publicBaseUrl(config);
  }

  /** GET (and HEAD) `path`, answered by `read`; `contentType` for bodies that are JSON text. */
  get(path: string, read: (r: ReadRequest) => Promise<unknown>, contentType?: string): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get(path, (req, reply) => {
      const fail = (err: unknown) => answerWithEnvelope(err, req, reply, this.docBase);
      const answer = () => {
        if (contentType) reply.header('Content-Type', contentType);
        return read(readRequestOf(req));
      };
      try {
        const admitted = this.access.admit(req, reply);
        (admitted ? admitted.then(answer) : answer()).then((body) => send(reply, body), fail);
      } catch (err) {
        fail(err);
      }
    });
  }
}

function send(reply: FastifyReply, body: unknown): void {
  if (!reply.sent) reply.send(body);
}
