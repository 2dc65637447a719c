import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { type ErrorCode, gatewayError, isGatewayErrorCode } from "../../errors.ts";
import { refusalResponse } from "../shared/http-status.ts";
import { type RequestIdContext, saneRequestId } from "./request-id.ts";

/** The request's own sane `X-Request-Id`, else a new one (a request yoga never saw). */
export function requestIdOfMessage(req: IncomingMessage): string {
  return saneRequestId(req.headers["x-request-id"]) ?? randomUUID();
}

/**
 * The catalogue code of a status that yoga or whatwg-node answer with no body of their own (an
 * unknown path, a method or media type yoga does not take); any other client error is a bad
 * request, any server error an unexpected one.
 */
const CODE_OF_BARE_STATUS: Record<number, ErrorCode> = {
  401: "UNAUTHENTICATED",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

function bareStatusError(status: number, method: string, url: URL, said?: string): GraphQLError {
  const code =
    CODE_OF_BARE_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_HTTP_REQUEST");
  const messages: Partial<Record<ErrorCode, string>> = {
    UNAUTHENTICATED: `${url.pathname} needs its credential in \`Authorization\`.`,
    NOT_FOUND: `Nothing is served at ${url.pathname}: GraphQL is at /graphql (docs/http.md lists the endpoints).`,
    METHOD_NOT_ALLOWED: `${method} is not served at ${url.pathname}: send GraphQL as a POST (or a query as a GET).`,
    NOT_ACCEPTABLE:
      "No media type in `Accept` can carry this answer: accept application/graphql-response+json or application/json (text/event-stream or multipart/mixed for streams).",
    PAYLOAD_TOO_LARGE: "The request body is too large.",
    UNSUPPORTED_MEDIA_TYPE:
      "The body's `Content-Type` is not one a GraphQL request is read from: send application/json.",
    INTERNAL_SERVER_ERROR: "Unexpected error.",
  };
  // yoga's own message, where it said one, is kept: only its code was not the catalogue's.
  const message =
    code === "INTERNAL_SERVER_ERROR"
      ? "Unexpected error."
      : (said ?? messages[code] ?? "The request is not one this gateway reads.");
  return gatewayError(code, message);
}

/** Results (and streams of them) answer their own errors; only a bare refusal is rewritten. */
const RESULT_TYPES = /text\/event-stream|multipart\/mixed/;

/** The first error's message of a yoga refusal whose code is not the catalogue's, if it is one. */
async function foreignRefusal(response: Response): Promise<string | undefined | false> {
  const type = response.headers.get("content-type") ?? "";
  if (RESULT_TYPES.test(type)) return false;
  if (!type.includes("json")) return undefined;
  // A body that is not JSON is a bare refusal: it gets the catalogue's, so no failure is hidden.
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as {
    errors?: { message?: unknown; extensions?: { code?: unknown } }[];
  };
  const first = body?.errors?.[0];
  if (first === undefined) return undefined;
  const code = first.extensions?.code;
  if (isGatewayErrorCode(code)) return false;
  // yoga's parse and validation codes stay; a status the catalogue names takes its code.
  if (typeof code === "string" && !(response.status in CODE_OF_BARE_STATUS)) return false;
  return typeof first.message === "string" ? first.message : undefined;
}

/**
 * Every refusal yoga (or whatwg-node) answers with a bare status, no JSON body, becomes the
 * catalogue error of that status (refusalAnswer), keeping the response's other headers (CORS,
 * `Allow`): a client reads a code and a request ID from every response of 400 and above.
 */
export function useCatalogueRefusals(): Plugin<Record<string, never>, RequestIdContext> {
  return {
    // Not async: a response under 400 goes on without waiting for a promise.
    onResponse({ request, response, serverContext, setResponse, fetchAPI }) {
      // 503 is /readyz's own answer, a JSON report, or a catalogue error of the operation.
      if (response.status < 400 || response.status === 503) return;
      // A refusal with a code of its own (the catalogue's, or yoga's parse and validation codes)
      // keeps it; a bare one, or one without a code (graphql-sse's "Missing query"), gets one.
      return foreignRefusal(response).then((said) => {
        if (said === false) return;
        const url = new fetchAPI.URL(request.url, "http://localhost");
        const requestId =
          serverContext.requestId ?? saneRequestId(request.headers.get("x-request-id"));
        const refusal = refusalResponse(
          bareStatusError(response.status, request.method, url, said),
          requestId,
          fetchAPI,
        );
        // The response's other headers (CORS, `Allow`) still hold.
        response.headers.forEach((value, name) => {
          if (!refusal.headers.has(name) && name !== "content-length") {
            refusal.headers.set(name, value);
          }
        });
        setResponse(refusal);
      });
    },
  };
}
