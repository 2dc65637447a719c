import type { ServerResponse } from "node:http";

/**
 * Writes a complete answer. Objects become JSON (`application/json`), strings are sent raw as
 * text/plain, undefined sends no body (e.g. 204). Headers already set on `res` are kept.
 */
export function sendResponse(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = status;
  if (body === undefined || status === 204 || status === 304) {
    res.end();
    return;
  }
  const isText = typeof body === "string";
  const payload = isText ? body : JSON.stringify(body);
  if (!res.hasHeader("Content-Type")) {
    res.setHeader("Content-Type", isText ? "text/plain; charset=utf-8" : "application/json");
  }
  res.setHeader("Content-Length", Buffer.byteLength(payload));
  res.end(payload);
}
