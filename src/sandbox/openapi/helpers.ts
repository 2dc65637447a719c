/**
 * Small builders for the paths of the sandbox's OpenAPI 3.1 document: parameters, bodies and
 * responses. The component schemas themselves are generated (components.ts).
 */

import type { Schema, SchemaName } from "./components.ts";

export type { Schema };

export const ref = (name: SchemaName): Schema => ({ $ref: `#/components/schemas/${name}` });

export const str = (): Schema => ({ type: "string" });
export const int = (extra: Schema = {}): Schema => ({ ...extra, type: "integer" });
export const enumOf = (values: readonly string[]): Schema => ({
  type: "string",
  enum: [...values],
});

// ---------------------------------------------------------------------------------------------
// Parameters, bodies and responses

const JSON_TYPE = "application/json";

export const json = (schema: Schema) => ({ [JSON_TYPE]: { schema } });

export const pathId = (name: string, what: string, prefix?: string) => ({
  name,
  in: "path",
  required: true,
  description:
    prefix === undefined ? `${what} identifier.` : `${what} identifier (\`${prefix}\` prefix).`,
  schema: { type: "string" },
});

export const query = (name: string, schema: Schema, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

export const jsonBody = (name: SchemaName) => ({ required: true, content: json(ref(name)) });

export const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
} as const;

/** A success response carrying the rate-limit headers; no body when `schema` is omitted. */
export const ok = (description: string, schema?: Schema) => ({
  description,
  headers: RATE_LIMIT_HEADERS,
  ...(schema === undefined ? {} : { content: json(schema) }),
});

export const ERROR_RESPONSES = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  422: "UnprocessableEntity",
  429: "TooManyRequests",
  500: "InternalServerError",
} as const;
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export const errorResponses = (statuses: readonly ErrorStatus[]) =>
  Object.fromEntries(
    statuses.map((s) => [String(s), { $ref: `#/components/responses/${ERROR_RESPONSES[s]}` }]),
  );
