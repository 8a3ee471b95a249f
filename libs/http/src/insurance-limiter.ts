import { IRateLimiterOptions, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** rate-limiter-flexible's in-memory insurance limiter, reporting each time it has to step in. */
export class InsuranceLimiter extends RateLimiterMemory {
  constructor(
    opts: IRateLimiterOptions,
    private readonly onUse: () => void,
  ) {
    super(opts);
  }

  override consume(
    key: string | number,
    points?: number,
    options?: { [key: string]: unknown },
  ): Promise<RateLimiterRes> {
    this.onUse();
    return super.consume(key, points, options);
  }
}
