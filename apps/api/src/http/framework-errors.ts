import { parameterInvalid, sendEnvelope } from '@graph-history/http';

type Request = Parameters<typeof sendEnvelope>[0];
type Reply = Parameters<typeof sendEnvelope>[1];

/**
 * Fastify's `frameworkErrors`: errors its router raises before any handler (a path with broken
 * percent-encoding) are answered in the error envelope too.
 */
export const frameworkErrors = (docBase: string) => (_err: unknown, req: Request, reply: Reply) =>
  sendEnvelope(
    req,
    reply,
    parameterInvalid(null, 'The URL is malformed (bad percent-encoding); encode it properly.'),
    docBase,
  );
