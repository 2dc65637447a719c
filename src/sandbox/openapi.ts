/**
 * The OpenAPI 3.1 document of the embedded sandbox, served at `GET /v1/openapi.json`. It describes
 * exactly what the sandbox serves: the seed's operations, the assumed ones (`x-assumed: true`)
 * and the sandbox's choices for the shapes the seed does not show, its component schemas
 * generated from the zod schemas the sandbox validates with and answers by (wire-shapes.ts).
 */
import { schemas } from "./openapi/components.ts";
import {
  ERROR_RESPONSES,
  type ErrorStatus,
  json,
  RATE_LIMIT_HEADERS,
  ref,
} from "./openapi/helpers.ts";
import { BEARER_SCHEME } from "./openapi/operation.ts";
import { paths } from "./openapi/paths.ts";

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Invalid, unknown or repeated parameters or body fields (INVALID_CURSOR for a cursor).",
  401: "Missing or invalid API key.",
  403: "Insufficient permissions (e.g. a write with a read-only key).",
  404: "Resource does not exist (`error.code` NOT_FOUND).",
  409: "Resource already exists, or state conflict.",
  422: "Validation error.",
  429: "Rate limit exceeded.",
  500: "Internal server error.",
};

const errorResponse = (status: ErrorStatus) => ({
  description: ERROR_DESCRIPTIONS[status],
  headers:
    status === 429
      ? { ...RATE_LIMIT_HEADERS, "Retry-After": { $ref: "#/components/headers/Retry-After" } }
      : RATE_LIMIT_HEADERS,
  content: json(ref("Error")),
});

const integerHeader = (description: string) => ({ description, schema: { type: "integer" } });

export const openApiDocument: Record<string, unknown> = {
  openapi: "3.1.0",
  info: {
    title: "Voice AI Agent Platform REST API (voicegraph sandbox)",
    version: "1.0.0",
    description:
      "In-memory implementation of the Voice AI Agent Platform REST API embedded in voicegraph. " +
      "Operations marked `x-assumed: true` are mentioned by the seed specification but not shown " +
      "by it; their shapes follow the seed's conventions. It describes the sandbox's `standard` " +
      "dialect (src/sandbox/dialects.ts); the `alternate` dialect answers differently.",
  },
  servers: [{ url: "/" }],
  tags: [
    { name: "Meta" },
    { name: "Organization" },
    { name: "Agents" },
    { name: "Phone numbers" },
    { name: "Conversations" },
    { name: "Properties" },
    { name: "Contacts" },
    { name: "Campaigns" },
    { name: "Tools" },
    { name: "Documents" },
  ],
  paths,
  components: {
    securitySchemes: {
      [BEARER_SCHEME]: {
        type: "http",
        scheme: "bearer",
        description: "`Authorization: Bearer <API_KEY>`; the key identifies the organization.",
      },
    },
    headers: {
      "X-RateLimit-Limit": integerHeader("Maximum requests per window for the organization."),
      "X-RateLimit-Remaining": integerHeader("Requests left in the current window."),
      "X-RateLimit-Reset": integerHeader("Unix timestamp (seconds) at which the window resets."),
      "Retry-After": integerHeader("Seconds to wait before retrying."),
    },
    responses: {
      ...Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, name]) => [
          name,
          errorResponse(Number(status) as ErrorStatus),
        ]),
      ),
      UnexpectedError: {
        description: "Any other error, e.g. 405, 413, or an injected 502/503/504 fault.",
        content: json(ref("Error")),
      },
    },
    schemas,
  },
};
