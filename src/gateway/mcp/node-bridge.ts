import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ErrorCode } from "../../errors.ts";

/** Headers of the node:http request that mean nothing to a Request made in process. */
const HOP_BY_HOP = /^(host|connection|content-length|transfer-encoding|keep-alive)$/;

/** The catalogue's code for each status the SDK's transport refuses with (405 and 406 have none). */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "BAD_USER_INPUT",
  404: "NOT_FOUND",
  405: "BAD_USER_INPUT",
  406: "BAD_USER_INPUT",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

/**
 * Hands a node:http request to the SDK's web-standard transport and writes its answer back,
 * streaming (SSE) as it comes. A refusal of the transport's (a 4xx or 5xx) keeps its JSON-RPC
 * error and also carries the gateway's catalogue error with the request's ID, as every refusal
 * of the gateway does.
 */
export async function serveThroughTransport(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
  requestId: string,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.test(name)) continue;
    for (const each of [value].flat()) headers.append(name, each);
  }
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
  });
  const response = await transport.handleRequest(
    request,
    parsedBody === undefined ? {} : { parsedBody },
  );
  if (response.status >= 400) {
    await writeRefusal(response, res, requestId);
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  // An SSE stream's headers go at once: the client waits for them before its first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  // The client gone: the stream is cancelled, which the transport takes as the stream's end.
  // A stream that already ended rejects its cancel: the client is gone, nothing to tell it.
  res.once("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    res.write(value);
  }
  res.end();
}

async function writeRefusal(response: Response, res: ServerResponse, requestId: string) {
  const text = await response.text();
  let rpc: Record<string, unknown> = {};
  try {
    rpc = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON-RPC: the catalogue error alone.
  }
  const said = (rpc.error as { message?: unknown } | undefined)?.message;
  const message = typeof said === "string" ? said : `Refused (${response.status}).`;
  const code = CODE_BY_STATUS[response.status] ?? "INTERNAL_SERVER_ERROR";
  const body = JSON.stringify({
    ...rpc,
    errors: [{ message, extensions: { code, http: { status: response.status }, requestId } }],
  });
  const kept = Object.fromEntries(
    [...response.headers].filter(([name]) => name !== "content-length" && name !== "content-type"),
  );
  res.writeHead(response.status, {
    ...kept,
    "content-type": "application/json; charset=utf-8",
    "x-request-id": requestId,
  });
  res.end(body);
}
