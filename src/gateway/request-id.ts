import { randomUUID } from "node:crypto";
import type { Plugin } from "graphql-yoga";

/** An incoming `X-Request-Id` the gateway accepts: short, and safe in a header and a log. */
const SANE = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's own ID when it sent a sane one, else a new one. */
export function requestIdOf(request: Request | undefined): string {
  const incoming = request?.headers.get("x-request-id");
  return incoming && SANE.test(incoming) ? incoming : randomUUID();
}

/**
 * Gives each request its ID as it arrives (before parsing, so even a syntax error carries it) and
 * answers it in the `X-Request-Id` header. `ids` is shared with the context factory.
 */
export function useRequestId(ids: WeakMap<Request, string>): Plugin {
  return {
    onRequest({ request }) {
      ids.set(request, requestIdOf(request));
    },
    onResponse({ request, response }) {
      const requestId = ids.get(request);
      if (requestId) response.headers.set("x-request-id", requestId);
    },
  };
}
