import { ApiError } from '@graph-history/http';

const n = (v: number) => v.toLocaleString('en-US');

/** 403 `quota_exceeded`: a request the account's quota refuses until it is raised or usage falls. */
const quotaExceeded = (
  param: string,
  message: string,
  extra: { quota: 'graphs' | 'bytes'; limit: number; usage: number; requested: number },
): ApiError => new ApiError(403, 'invalid_request_error', 'quota_exceeded', message, param, extra);

export const graphQuotaExceeded = (limit: number, usage: number): ApiError =>
  quotaExceeded(
    'graph_key',
    `This account holds ${n(usage)} graphs, its quota of ${n(limit)}: send events to one of its ` +
      'graphs, or have the operator raise the quota (graph-history accounts set-quota --graphs N).',
    { quota: 'graphs', limit, usage, requested: 1 },
  );

export const bytesQuotaExceeded = (limit: number, usage: number, requested: number): ApiError =>
  quotaExceeded(
    'events',
    `This batch (${n(requested)} bytes) would take the account's stored events past its quota of ` +
      `${n(limit)} bytes (it holds ${n(usage)}): wait for retention to trim old events, or have the ` +
      'operator raise the quota (graph-history accounts set-quota --bytes N).',
    { quota: 'bytes', limit, usage, requested },
  );
