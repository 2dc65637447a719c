import type { Plugin } from "graphql-yoga";

/** How long one readiness verdict is answered again (docs/limits.md). */
export const READINESS_CACHE_MS = 2000;

/** What `GET /readyz` reports: ready or not, and the state of each dependency. */
export interface Readiness {
  ready: boolean;
  [dependency: string]: unknown;
}

/**
 * `GET /readyz`: 200 while `check` says the gateway is ready, else 503, with a JSON body that
 * says what is (not) ready (a failing check's message when it throws). One check serves every
 * hit for `cacheMs`: 50 hits a second make one upstream call, not 50. yoga's useReadinessCheck
 * answers the same, but matches every request's URL against a URLPattern to know it is not this
 * one: about 2 % of the CPU of a served query. An exact path match is all this endpoint needs.
 * `now` adds what costs nothing to read and must show at once (the fleet store's state): it is
 * read at every hit, outside the cached verdict.
 */
export function useReadiness(
  endpoint: string,
  check: () => Promise<Readiness>,
  cacheMs: number = READINESS_CACHE_MS,
  now: () => Record<string, unknown> = () => ({}),
): Plugin {
  let last: { at: number; verdict: Promise<Readiness> } | undefined;
  const cachedCheck = () => {
    const now = Date.now();
    if (last === undefined || now - last.at >= cacheMs) last = { at: now, verdict: check() };
    return last.verdict;
  };
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      const answer = (status: number, body: unknown) =>
        endResponse(fetchAPI.Response.json(body, { status }));
      return cachedCheck().then(
        (readiness) => answer(readiness.ready ? 200 : 503, { ...readiness, ...now() }),
        (error: unknown) =>
          answer(503, {
            ready: false,
            error: error instanceof Error ? error.message : "the readiness check failed",
          }),
      );
    },
  };
}
