import type { IncomingMessage, ServerResponse } from "node:http";
import { type ErrorCode, gatewayError } from "../../errors.ts";
import { requestIdOf } from "../arrival/request-id.ts";
import { refusalResponse } from "../shared/http-status.ts";

/** The request's ID by the gateway's one rule (a sane incoming `X-Request-Id`, else a new one). */
export function requestIdOfMessage(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  const headers = new Headers(typeof incoming === "string" ? { "x-request-id": incoming } : {});
  return requestIdOf({ headers } as Request);
}

/**
 * Answers an HTTP-level refusal of /mcp as every refusal of the gateway is answered: its
 * catalogue error, status and request ID (http-status.ts).
 */
export async function refuse(
  res: ServerResponse,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const response = refusalResponse(gatewayError(code, message), requestId);
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...headers });
  res.end(await response.text());
}

/** Writes a JSON document (the RFC 9728 metadata). */
export function answerJson(res: ServerResponse, body: unknown, requestId: string): void {
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "x-request-id": requestId,
  });
  res.end(JSON.stringify(body));
}

/**
 * The request's body, at most `maxBytes` (else undefined, and nothing more is read); a
 * declared length past the bound is refused before reading.
 */
export async function readBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<string | undefined> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
