import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import { refusalResponse } from "../shared/http-status.ts";
import type { RequestIdContext } from "./request-id.ts";

export interface RequestSizeLimitOptions {
  /** Largest request body read (MAX_REQUEST_BYTES). */
  maxBytes: number;
}

/**
 * Refuses a request body over `maxBytes` with HTTP 413 before yoga buffers and parses it: by its
 * Content-Length when it states one, else by counting the bytes of a streamed (chunked) body.
 */
export function useRequestSizeLimit(
  options: RequestSizeLimitOptions,
): Plugin<Record<string, never>, RequestIdContext> {
  const { maxBytes } = options;
  const tooLarge = (fetchAPI: { Response: typeof Response }, requestId: string | undefined) =>
    refusalResponse(
      gatewayError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes.`),
      requestId,
      fetchAPI,
    );

  return {
    async onRequest({ request, setRequest, endResponse, fetchAPI, serverContext }) {
      if (request.body === null) return;
      const declared = request.headers.get("content-length");
      if (declared !== null) {
        if (!declaredWithin(declared, maxBytes))
          endResponse(tooLarge(fetchAPI, serverContext.requestId));
        return;
      }
      const body = await readAtMost(request.body, maxBytes);
      if (body === undefined) {
        endResponse(tooLarge(fetchAPI, serverContext.requestId));
        return;
      }
      setRequest(
        new fetchAPI.Request(request.url, {
          method: request.method,
          headers: request.headers,
          body,
        }),
      );
    },
  };
}

/**
 * Whether a declared Content-Length is within `maxBytes` (the fast path serves only such bodies,
 * already read, so this plugin sees no body of theirs to count).
 */
export function declaredWithin(declared: string, maxBytes: number): boolean {
  return Number(declared) <= maxBytes;
}

/** The stream's bytes, or undefined as soon as they pass `maxBytes` (the rest is not read). */
async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
