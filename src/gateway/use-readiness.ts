import type { Plugin } from "graphql-yoga";

/** How long one readiness verdict is answered again (docs/limits.md). */
export const READINESS_CACHE_MS = 2000;

/**
 * `GET /readyz`: 200 while `check` says the upstream is reachable, else 503 (with the error's
 * message as text when the check fails). yoga's useReadinessCheck answers the same, but matches
 * every request's URL against a URLPattern to know it is not this one: about 2 % of the CPU of a
 * served query. An exact path match is all this endpoint needs.
 */
export function useReadiness(
  endpoint: string,
  check: () => Promise<boolean>,
  cacheMs: number = READINESS_CACHE_MS,
): Plugin {
  // One check serves every hit for `cacheMs`: 50 hits a second make one upstream call, not 50.
  let last: { at: number; verdict: Promise<boolean> } | undefined;
  const cachedCheck = () => {
    const now = Date.now();
    if (last === undefined || now - last.at >= cacheMs) last = { at: now, verdict: check() };
    return last.verdict;
  };
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      return cachedCheck().then(
        (ready) => endResponse(new fetchAPI.Response(null, { status: ready ? 200 : 503 })),
        (error: unknown) =>
          endResponse(
            error instanceof Error
              ? new fetchAPI.Response(error.message, {
                  status: 503,
                  headers: { "content-type": "text/plain; charset=utf-8" },
                })
              : new fetchAPI.Response(null, { status: 503 }),
          ),
      );
    },
  };
}
