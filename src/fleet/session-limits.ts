import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { rateLimiterFlexible } from "./rate-limiter.ts";
import type { FleetRedis } from "./redis.ts";

/**
 * SESSION_RATE_LIMIT for the fleet, not per instance: rate-limiter-flexible's Redis limiter
 * (an atomic count per session and window, one key each under `<prefix>session:`), with an
 * in-memory limiter taking over while Redis is unreachable, slower than the command timeout or
 * refusing, so a session is still limited (per instance) and never waits on Redis. The memory
 * limiter is called here rather than as the library's insurance limiter, which would swallow
 * the failure: through `sharedOrLocal`, a refusal is reported like any other.
 */
export function createFleetSessionLimiter(
  redis: FleetRedis,
  perMinute: number,
): RateLimiterAbstract {
  const { RateLimiterMemory, RateLimiterRedis } = rateLimiterFlexible();
  const insurance = new RateLimiterMemory({ points: perMinute, duration: 60 });
  class FleetSessionLimiter extends RateLimiterRedis {
    override async consume(
      key: string | number,
      points?: number,
      options?: Record<string, unknown>,
    ): Promise<RateLimiterRes> {
      return redis.sharedOrLocal(
        () => super.consume(key, points, options),
        () => insurance.consume(key, points, options),
      );
    }
  }
  return new FleetSessionLimiter({
    storeClient: redis.client,
    keyPrefix: redis.key("session"),
    points: perMinute,
    duration: 60,
    rejectIfRedisNotReady: true,
  });
}
