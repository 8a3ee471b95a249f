import { parameterInvalid } from './api-error';
import { badPercentEncoding, PathParams } from './path-params';
import { sendEnvelope } from './send-envelope';

type Request = Parameters<typeof sendEnvelope>[0];
type Reply = Parameters<typeof sendEnvelope>[1];

/**
 * Fastify's `frameworkErrors`: a path the router cannot decode (broken percent-encoding) is
 * answered in the error envelope, naming the path parameter at fault when there is one.
 */
export const frameworkErrors =
  (docBase: string, params: PathParams) => (_err: unknown, req: Request, reply: Reply) => {
    const param = params.paramAt(req.url, badPercentEncoding);
    return sendEnvelope(
      req,
      reply,
      parameterInvalid(
        param,
        param
          ? `The ${param} in the URL has a broken percent-encoding (% must be followed by two hex digits); encode it properly.`
          : 'The URL has a broken percent-encoding (% must be followed by two hex digits); encode it properly.',
      ),
      docBase,
    );
  };
