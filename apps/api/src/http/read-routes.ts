import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HEADERS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '@graph-history/config';
import { answerWithEnvelope, CONFIG } from '@graph-history/http';
import { publicBaseUrl } from '../public-urls';
import { ApiAccess } from './api-access';
import { READ_PATH, type ReadHandler } from './read.decorator';
import { readRequestOf } from './read-request';

interface Header {
  name: string;
  value: string;
}

/**
 * Mounts every `@Read` method of the controllers on Fastify directly: Nest's per-request pipeline
 * (guard, parameter pipes, interceptor and response layers, a dozen promises) costs about a tenth
 * of a hot read's CPU. A read answers as a Nest route would: the access check (ApiAccess) first,
 * then the method's `@Header`s, the same error envelope and log as the exception filter
 * (answerWithEnvelope), and Fastify's hooks (Request-Id, the fair share's charge, the ETag) alike.
 * Mounted in onModuleInit: after Nest's routes, before the server listens.
 */
@Injectable()
export class ReadRoutes implements OnModuleInit {
  private readonly docBase: string;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly adapterHost: HttpAdapterHost,
    private readonly access: ApiAccess,
    @Inject(CONFIG) config: Config,
  ) {
    this.docBase = publicBaseUrl(config);
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const { instance, metatype } of this.discovery.getControllers()) {
      if (!instance || !metatype) continue;
      const base = Reflect.getMetadata(PATH_METADATA, metatype) as string;
      const proto = Object.getPrototypeOf(instance) as Record<string, ReadHandler>;
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const method = proto[name]!;
        const path = Reflect.getMetadata(READ_PATH, method) as string | undefined;
        if (path === undefined) continue;
        const headers = (Reflect.getMetadata(HEADERS_METADATA, method) ?? []) as Header[];
        this.mount(fastify, routePath(base, path), method.bind(instance), headers);
      }
    }
  }

  private mount(
    fastify: FastifyInstance,
    path: string,
    read: ReadHandler,
    headers: readonly Header[],
  ): void {
    fastify.get(path, (req, reply) => {
      const fail = (err: unknown) => answerWithEnvelope(err, req, reply, this.docBase);
      const answer = () => {
        for (const { name, value } of headers) reply.header(name, value);
        return read(readRequestOf(req), reply);
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

/** The controller's path and the method's, joined as Nest joins them. */
const routePath = (base: string, path: string): string =>
  `/${[base, path]
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

function send(reply: FastifyReply, body: unknown): void {
  if (!reply.sent) reply.send(body);
}
