import { randomUUID } from "node:crypto";
import type { Plugin } from "graphql-yoga";
import { nameRequestScope } from "../observability/logger.ts";

/** An incoming `X-Request-Id` the gateway accepts: short, and safe in a header and a log. */
const SANE = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's own ID when it sent a sane one, else a new one. */
export function requestIdOf(request: Request | undefined): string {
  return saneRequestId(request?.headers.get("x-request-id")) ?? randomUUID();
}

/** An incoming `X-Request-Id` when the gateway accepts it, else undefined. */
export function saneRequestId(incoming: string | string[] | null | undefined): string | undefined {
  return typeof incoming === "string" && SANE.test(incoming) ? incoming : undefined;
}

/**
 * What the gateway adds to yoga's server context: the one home of a request's ID. yoga builds a
 * server context per request (the node:http adapter's, the fast path's, `fetch`'s) and hands the
 * same object to every hook and to the context factory, whichever Request a plugin put in its
 * place (the size limit does).
 */
export interface RequestIdContext {
  requestId?: string;
}

/**
 * Gives each request its ID as it arrives (before parsing, so even a syntax error carries it),
 * names its log scope by it, and answers it in the `X-Request-Id` header.
 */
export function useRequestId(): Plugin<Record<string, never>, RequestIdContext> {
  return {
    onRequest({ request, serverContext }) {
      // The prepared lane named a request it hands over to yoga already: one ID per request.
      serverContext.requestId ??= requestIdOf(request);
      nameRequestScope(serverContext.requestId);
    },
    onResponse({ response, serverContext }) {
      if (serverContext.requestId) response.headers.set("x-request-id", serverContext.requestId);
    },
  };
}
