import type { IncomingMessage } from "node:http";
import { ApiError } from "./error-codes.ts";
import { isJsonObject } from "./vocabulary.ts";

/** Bodies above this are refused: nothing in the API needs more. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request body as received: raw text, and the JSON it holds when it is JSON. */
export interface RequestBody {
  /** Empty string when there was no body. */
  raw: string;
  tooLarge: boolean;
  json: { ok: true; value: unknown } | { ok: false };
}

export async function readRequestBody(req: IncomingMessage): Promise<RequestBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep draining so the connection stays usable, but stop buffering.
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  const raw = tooLarge ? "" : Buffer.concat(chunks).toString("utf8");
  return { raw, tooLarge, json: parseJson(raw) };
}

function parseJson(raw: string): RequestBody["json"] {
  if (raw.trim() === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

/** What the request log records: parsed JSON, else the raw text, else undefined. */
export function loggedBody(body: RequestBody): unknown {
  if (body.json.ok) return body.json.value;
  return body.raw === "" ? undefined : body.raw;
}

/** The body of a write operation: a JSON object, or 400 BAD_REQUEST saying what is wrong. */
export function requireJsonObject(body: RequestBody): Record<string, unknown> {
  if (body.tooLarge) {
    throw new ApiError("PAYLOAD_TOO_LARGE", `The body exceeds ${MAX_BODY_BYTES} bytes.`);
  }
  if (body.raw.trim() === "") {
    throw new ApiError("BAD_REQUEST", "A JSON request body is required.", {
      location: "body",
      reason: "missing",
    });
  }
  if (!body.json.ok) {
    throw new ApiError("BAD_REQUEST", "The request body is not valid JSON.", {
      location: "body",
      reason: "invalid JSON",
    });
  }
  const value = body.json.value;
  if (!isJsonObject(value)) {
    throw new ApiError("BAD_REQUEST", "The request body must be a JSON object.", {
      location: "body",
      reason: "not an object",
    });
  }
  return value;
}
