import { type ExecutionResult, GraphQLError, parse } from "graphql";
import type { Context, SubscribePayload } from "graphql-ws";
import type { Extra } from "graphql-ws/use/ws";
import { createGraphQLError } from "graphql-yoga";
import { requestIdOf } from "../arrival/request-id.ts";
import type { Gateway } from "../create-gateway.ts";
import { formatWithHttpStatus } from "../shared/http-status.ts";

/** An operation's result as yoga gave it: one result, or the stream of a subscription. */
export interface OperationOutcome {
  result: ExecutionResult | AsyncIterable<ExecutionResult>;
  /** The operation's own request ID: every error it answers names it, as over HTTP. */
  requestId: string;
}

/**
 * graphql-ws runs the document it is handed: this one only tells it "run the operation", whose
 * result is already in rootValue (execute and subscribe both hand it over as it is).
 */
export const CARRIER = parse("query OperationOverWebSocket { __typename }");

/**
 * Every operation's request headers, shared: as pairs, which @whatwg-node's Headers reads in
 * place, where from an object it would keep two arrays of its names per request, and so per
 * open subscription, once a plugin had asked for a header it lacks.
 */
const JSON_HEADERS: [string, string][] = [["content-type", "application/json"]];

/**
 * Runs one graphql-ws operation through yoga's own parameter pipeline, the one HTTP and SSE
 * requests take: every `onParams` rule (trusted documents, automatic persisted queries), then
 * context (the session's token, its rate limit), validation (introspection), and execution with
 * every plugin. So no rule of the gateway depends on the transport a client chooses.
 * A refusal is that operation's errors: the socket stays open for the others.
 */
export async function runOverWebSocket(
  gateway: Gateway,
  context: Context<Record<string, unknown> | undefined, Extra>,
  payload: SubscribePayload,
): Promise<OperationOutcome | { errors: GraphQLError[] }> {
  // The operation's own request: the upgrade's URL and headers (the key is not among them: it
  // comes in connection params, read by the context factory from the server context). Its own,
  // not the socket's: each execution leaves graphql-tools a listener on the request's signal.
  const upgrade = context.extra.request;
  const request = new gateway.fetchAPI.Request(`http://localhost${upgrade.url ?? "/graphql"}`, {
    method: "POST",
    headers: JSON_HEADERS,
  });
  // One ID per operation, as each HTTP request has its own: a socket carries many operations.
  // Flat: randomUUID's text is a rope of a dozen strings, and a subscription keeps its ID.
  const requestId = flat(requestIdOf(undefined));
  const serverContext = {
    ...context,
    requestId,
    req: upgrade,
    socket: context.extra.socket,
    connectionParams: context.connectionParams,
  };
  try {
    const params = {
      query: payload.query,
      operationName: payload.operationName ?? undefined,
      variables: payload.variables ?? undefined,
      extensions: payload.extensions ?? undefined,
      // A trusted document's ID, as HTTP clients send it (use-persisted-documents.ts).
      ...documentIdOf(payload),
    };
    const result = await gateway.getResultForParams({ params, request }, serverContext);
    return { result: result as OperationOutcome["result"], requestId };
  } catch (error) {
    // onParams refusals (PERSISTED_QUERY_ONLY, …) are GraphQL errors meant for the client.
    if (error instanceof GraphQLError) return refused(error, requestId);
    gateway.logger.error(error);
    const unexpected = createGraphQLError("Unexpected error.", {
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    });
    return refused(unexpected, requestId);
  }
}

/** The same text as one flat string, whatever pieces it was joined from. */
function flat(text: string): string {
  return Buffer.from(text, "latin1").toString("latin1");
}

/** A refusal as graphql-ws sends it (an `error` message): with its status and request ID. */
function refused(error: GraphQLError, requestId: string) {
  const [shown] = formatWithHttpStatus({ errors: [error] }, requestId).errors ?? [];
  const extensions = (shown as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  // graphql-ws takes GraphQLError objects only: the same error, its extensions as shown.
  const copy = createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    ...(extensions ? { extensions } : {}),
  });
  return { errors: [copy] };
}

function documentIdOf(payload: SubscribePayload): { documentId?: string } {
  const documentId = (payload as { documentId?: unknown }).documentId;
  return typeof documentId === "string" ? { documentId } : {};
}
