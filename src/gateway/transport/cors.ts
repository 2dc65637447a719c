import { RATE_LIMIT_HEADERS } from "../../upstream/rate-limit.ts";

/**
 * CORS without credentials: the key travels in the Authorization header, never in a cookie, so
 * no origin needs `Access-Control-Allow-Credentials`. With "*" a page's origin is answered as
 * itself (whatwg-node's way of saying any); a listed origin is answered as itself; any other
 * origin, and the `null` origin of sandboxed frames and local files, gets no CORS headers at
 * all, so its page cannot read the answer.
 */
export function corsFor(origins: readonly string[]) {
  const common = {
    credentials: false,
    // Browsers may read the rate-limit figures the gateway forwards.
    exposedHeaders: [...Object.values(RATE_LIMIT_HEADERS), "Retry-After", "X-Request-Id"],
  };
  const anyOrigin = origins.includes("*");
  return (request: Request) => {
    const origin = request.headers.get("origin");
    if (origin === null || origin === "null") return false as const;
    if (!anyOrigin && !origins.includes(origin)) return false as const;
    // Two entries: whatwg-node then answers the request's origin with `Vary: Origin`.
    return { ...common, origin: [origin, "*"] };
  };
}
