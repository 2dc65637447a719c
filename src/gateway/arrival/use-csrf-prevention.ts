import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import { refusalResponse } from "../shared/http-status.ts";
import type { RequestIdContext } from "./request-id.ts";

/** Content types a browser may POST cross-site without a CORS preflight (a plain HTML form). */
const SIMPLE_CONTENT_TYPES = ["application/x-www-form-urlencoded", "text/plain"];

/**
 * CSRF prevention: a POST whose content type a cross-site page can send without a preflight
 * runs nothing (HTTP 415, before its body is read), even with a key. The rest needs no check:
 * JSON POSTs are preflighted; GET runs no mutation (405, yoga); the key travels only in the
 * Authorization header, which no browser sends cross-site without a preflight; and multipart
 * is refused (415, yoga's `multipart: false`).
 */
export function useCsrfPrevention(): Plugin<Record<string, never>, RequestIdContext> {
  return {
    onRequest({ request, endResponse, fetchAPI, serverContext }) {
      if (request.method !== "POST") return;
      const type = (request.headers.get("content-type") ?? "").trim().toLowerCase();
      // No content type at all (a Blob body from fetch in no-cors mode) is as simple as a form.
      if (type !== "" && !SIMPLE_CONTENT_TYPES.some((simple) => type.startsWith(simple))) return;
      const message =
        "This content type can be sent cross-site without a CORS preflight, so it runs nothing: " +
        "send application/json.";
      const refusal = gatewayError("UNSUPPORTED_MEDIA_TYPE", message);
      endResponse(refusalResponse(refusal, serverContext.requestId, fetchAPI));
    },
  };
}
