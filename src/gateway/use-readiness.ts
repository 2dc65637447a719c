import type { Plugin } from "graphql-yoga";

/** What `GET /readyz` reports: ready or not, and the state of each dependency. */
export interface Readiness {
  ready: boolean;
  [dependency: string]: unknown;
}

/**
 * `GET /readyz`: 200 while `check` says the gateway is ready, else 503, with a JSON body that
 * says what is (not) ready (a failing check's message when it throws). yoga's useReadinessCheck
 * answers the same, but matches every request's URL against a URLPattern to know it is not this
 * one: about 2 % of the CPU of a served query. An exact path match is all this endpoint needs.
 */
export function useReadiness(endpoint: string, check: () => Promise<Readiness>): Plugin {
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) return;
      const answer = (status: number, body: unknown) =>
        endResponse(fetchAPI.Response.json(body, { status }));
      return check().then(
        (readiness) => answer(readiness.ready ? 200 : 503, readiness),
        (error: unknown) =>
          answer(503, {
            ready: false,
            error: error instanceof Error ? error.message : "the readiness check failed",
          }),
      );
    },
  };
}
