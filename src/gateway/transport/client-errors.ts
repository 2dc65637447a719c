import type { Duplex } from "node:stream";
import { gatewayError } from "../../errors.ts";
import { refusalOnSocket } from "../shared/http-status.ts";

/**
 * What node:http refuses before any handler sees the request, answered as every other refusal
 * is: a GraphQL error with its catalogue code, status and a request ID. node's own answer is a
 * bare status line and no body, which a GraphQL client reports as an empty reply.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  maxHeaderBytes: number,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = refusalFor(error.code, maxHeaderBytes);
  if (refusal === undefined) {
    socket.destroy();
    return;
  }
  refusalOnSocket(socket, refusal);
}

function refusalFor(code: string | undefined, maxHeaderBytes: number) {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return gatewayError(
        "HEADERS_TOO_LARGE",
        `The request line and headers are larger than ${maxHeaderBytes} bytes: send a long query as a POST body.`,
      );
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return gatewayError(
        "REQUEST_TIMEOUT",
        "The request was not sent in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS).",
      );
    // A socket reset or an aborted request has no one left to read an answer.
    case "ECONNRESET":
    case "HPE_INVALID_EOF_STATE":
      return undefined;
    default:
      return gatewayError("BAD_HTTP_REQUEST", "The request is not well-formed HTTP/1.1.");
  }
}
