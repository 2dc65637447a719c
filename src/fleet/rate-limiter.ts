import { createRequire } from "node:module";

type RateLimiterFlexible = typeof import("rate-limiter-flexible");
let loaded: RateLimiterFlexible | undefined;

/**
 * rate-limiter-flexible, loaded at its first use: only session mode and a fleet's session limit
 * count with it, so a gateway with the defaults does not hold its modules. It is CommonJS, so
 * `require` loads it in place, where a limiter is made synchronously.
 */
export function rateLimiterFlexible(): RateLimiterFlexible {
  loaded ??= createRequire(import.meta.url)("rate-limiter-flexible") as RateLimiterFlexible;
  return loaded;
}
