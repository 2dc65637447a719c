import type { RateLimiterRedis } from "rate-limiter-flexible";
import { rateLimiterFlexible } from "./rate-limiter.ts";
import type { FleetRedis } from "./redis.ts";

/**
 * SESSION_RATE_LIMIT for the fleet, not per instance: rate-limiter-flexible's Redis limiter
 * (an atomic count per session and window, under `<prefix>session:`), with its in-memory
 * insurance limiter taking over while Redis is unreachable or slower than the command timeout,
 * so a session is still limited (per instance) and never waits on Redis.
 */
export function createFleetSessionLimiter(redis: FleetRedis, perMinute: number): RateLimiterRedis {
  const { RateLimiterMemory, RateLimiterRedis } = rateLimiterFlexible();
  return new RateLimiterRedis({
    storeClient: redis.client,
    keyPrefix: redis.key("session"),
    points: perMinute,
    duration: 60,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points: perMinute, duration: 60 }),
  });
}
