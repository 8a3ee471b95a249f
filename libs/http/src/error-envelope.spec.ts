import { NotFoundException } from '@nestjs/common';
import { ApiError, parameterInvalid } from './api-error';
import { toEnvelope } from './error-envelope';

const ctx = { requestId: 'req_abc', method: 'GET', url: '/api/v1/nope?x=1', docBase: 'http://h' };

describe('toEnvelope', () => {
  it('renders ApiErrors with their param, extras and doc_url', () => {
    const err = new ApiError(
      410,
      'invalid_request_error',
      'outside_retention_window',
      'Too old.',
      'as_of',
      {
        first_event_id: 'evt_1',
        last_event_id: 'evt_2',
      },
    );
    expect(toEnvelope(err, ctx)).toEqual({
      status: 410,
      headers: {},
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'outside_retention_window',
          message: 'Too old.',
          param: 'as_of',
          doc_url: 'http://h/docs/errors#outside_retention_window',
          first_event_id: 'evt_1',
          last_event_id: 'evt_2',
        },
      },
    });
    expect(toEnvelope(parameterInvalid('limit', 'Bad.'), ctx).body.error.param).toBe('limit');
  });

  it('turns an unknown route into resource_missing with a null param', () => {
    const e = toEnvelope(new NotFoundException(), ctx);
    expect(e.status).toBe(404);
    expect(e.body.error).toMatchObject({
      code: 'resource_missing',
      param: null,
      type: 'invalid_request_error',
    });
    expect(e.body.error.message).toContain('/api/v1/nope');
  });

  it('maps Fastify body errors to 4xx, never 500', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    expect(toEnvelope(tooLarge, ctx)).toMatchObject({
      status: 413,
      body: { error: { code: 'request_too_large' } },
    });
    const badJson = Object.assign(new SyntaxError('Unexpected token } in JSON'), {
      statusCode: 400,
    });
    expect(toEnvelope(badJson, ctx)).toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_invalid', param: 'body' } },
    });
  });

  it('maps body errors Nest wrapped as HttpExceptions by their status', () => {
    const { HttpException } = jest.requireActual('@nestjs/common');
    expect(toEnvelope(new HttpException('Request body is too large', 413), ctx)).toMatchObject({
      status: 413,
      body: { error: { code: 'request_too_large' } },
    });
    expect(
      toEnvelope(new HttpException('Unsupported Media Type: text/plain', 415), ctx),
    ).toMatchObject({
      status: 415,
      body: { error: { code: 'unsupported_media_type' } },
    });
    expect(
      toEnvelope(new HttpException(`Unexpected token 'x', "x" is not valid JSON`, 400), ctx),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_invalid', param: 'body' } },
    });
    expect(
      toEnvelope(
        new HttpException(
          "Body cannot be empty when content-type is set to 'application/json'",
          400,
        ),
        ctx,
      ).body.error.message,
    ).toContain('empty');
  });

  it('quotes the request id on internal errors, 503 when Postgres is unreachable', () => {
    const e = toEnvelope(new Error('boom'), ctx);
    expect(e.status).toBe(500);
    expect(e.body.error).toMatchObject({ type: 'api_error', code: 'api_error', param: null });
    expect(e.body.error.message).toContain('req_abc');
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(toEnvelope(down, ctx).status).toBe(503);
  });
});
