/**
 * What the MCP layer needs of the gateway: its own fetch (the handler /graphql uses, so every
 * rule of admission, costs, limits, redaction and metrics holds for a tool call).
 */
export interface GatewayFetch {
  fetch(url: string, init: RequestInit): Response | Promise<Response>;
}

/** The caller's headers a tool call carries into the gateway: its credential and request ID. */
export interface CallerHeaders {
  authorization: string;
  requestId?: string | undefined;
}

export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** The gateway's path for GraphQL requests made on an MCP caller's behalf. */
const GRAPHQL_URL = "http://mcp.internal/graphql";

function headersOf(caller: CallerHeaders, accept: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept,
    authorization: caller.authorization,
    ...(caller.requestId ? { "x-request-id": caller.requestId } : {}),
  };
}

/** Runs one operation through the gateway as a POST to /graphql would. */
export async function runOperation(
  gateway: GatewayFetch,
  caller: CallerHeaders,
  body: { query: string; operationName?: string; variables?: Record<string, unknown> },
  signal?: AbortSignal,
): Promise<{ body: GraphQLBody; requestId: string | undefined }> {
  const response = await gateway.fetch(GRAPHQL_URL, {
    method: "POST",
    headers: headersOf(caller, "application/json"),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const requestId = response.headers.get("x-request-id") ?? undefined;
  return { body: (await response.json()) as GraphQLBody, requestId };
}

/** A tool's answer: `structuredContent` and the same JSON as text, as the MCP spec asks. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A GraphQL answer as a tool result: its data, or, when it carries errors, `isError` with the
 * first error's catalogue code, message and request ID (all errors kept beside them).
 */
export function toolResult(body: GraphQLBody, requestId: string | undefined): ToolResult {
  const errors = body.errors ?? [];
  if (errors.length === 0) {
    const data = body.data ?? {};
    return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
  }
  const first = errors[0] as NonNullable<GraphQLBody["errors"]>[number];
  const code =
    typeof first.extensions?.code === "string" ? first.extensions.code : "INTERNAL_SERVER_ERROR";
  const id =
    typeof first.extensions?.requestId === "string" ? first.extensions.requestId : requestId;
  return toolError(code, first.message, id, { errors, ...(body.data ? { data: body.data } : {}) });
}

/** An `isError` result of the gateway's own, with a catalogue code and the request's ID. */
export function toolError(
  code: string,
  message: string,
  requestId: string | undefined,
  more: Record<string, unknown> = {},
): ToolResult {
  const structured = { code, message, ...(requestId ? { requestId } : {}), ...more };
  const text = `${code}: ${message}${requestId ? ` (requestId ${requestId})` : ""}`;
  return {
    isError: true,
    content: [
      { type: "text", text },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

/**
 * Runs a subscription through the gateway over SSE and hands each `next` payload to `onNext`
 * until it completes, fails or `signal` aborts; the gateway's live hub does the polling.
 */
export async function followSubscription(
  gateway: GatewayFetch,
  caller: CallerHeaders,
  body: { query: string; operationName?: string; variables: Record<string, unknown> },
  signal: AbortSignal,
  onNext: (payload: GraphQLBody) => void,
): Promise<void> {
  const response = await gateway.fetch(GRAPHQL_URL, {
    method: "POST",
    headers: headersOf(caller, "text/event-stream"),
    body: JSON.stringify(body),
    signal,
  });
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    onNext((await response.json()) as GraphQLBody);
    return;
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  // Cancelling a stream that already ended or failed may reject: the reader is done either way.
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", stop, { once: true });
  // Aborted while the stream was being opened: the listener above came too late.
  if (signal.aborted) stop();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return;
      buffered += decoder.decode(value, { stream: true });
      let end = buffered.indexOf("\n\n");
      while (end !== -1) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf("\n\n");
        const lines = event.split("\n");
        const kind = lines
          .find((line) => line.startsWith("event:"))
          ?.slice(6)
          .trim();
        if (kind === "complete") return;
        const data = lines
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .join("\n");
        if (data !== "" && (kind === undefined || kind === "next")) onNext(JSON.parse(data));
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
    stop();
  }
}
