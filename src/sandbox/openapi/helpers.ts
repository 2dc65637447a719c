/**
 * Small builders for the sandbox's OpenAPI 3.1 document (JSON Schema 2020-12 style: nullable
 * values are `type: [T, "null"]`).
 */

/** Names of the component schemas (schemas.ts must define exactly these). */
export type SchemaName =
  | "Error"
  | "Organization"
  | "UpdateOrganizationBody"
  | "VoiceConfig"
  | "VoiceConfigInput"
  | "Agent"
  | "AgentUpdateResponse"
  | "UpdateAgentBody"
  | "CreateAgentBody"
  | "AgentPage"
  | "AgentStats"
  | "Conversation"
  | "ConversationPage"
  | "ConversationStatusView"
  | "Contact"
  | "ContactStats"
  | "Campaign"
  | "CampaignPage"
  | "RetryCampaignResponse"
  | "PhoneNumber"
  | "AssignPhoneNumberBody"
  | "PropertyDefinition"
  | "ToolCatalogEntry"
  | "ToolCatalogResponse"
  | "Document";

export type Schema = { [key: string]: unknown };
/** A schema whose value may be null (`type: [T, "null"]`). */
export type NullableSchema = Schema & { type: readonly [string, "null"] };
/** A schema whose value is never null (`$ref` or a single `type`). */
export type NonNullSchema = Schema & { type?: string };

export const ref = (name: SchemaName): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A schema with a single JSON type, which `nullable` can widen. */
export type Typed<T extends string> = Schema & { type: T };

export const str = (description?: string): Typed<"string"> =>
  description === undefined ? { type: "string" } : { type: "string", description };
export const int = (extra: Schema = {}): Typed<"integer"> => ({ ...extra, type: "integer" });
export const count = (): Typed<"integer"> => int({ minimum: 0 });
export const bool = (): Typed<"boolean"> => ({ type: "boolean" });
export const dateTime = (): Typed<"string"> => ({ type: "string", format: "date-time" });
export const enumOf = (values: readonly string[]): Typed<"string"> => ({
  type: "string",
  enum: [...values],
});
export const arrayOf = (items: Schema): Typed<"array"> => ({ type: "array", items });
export const freeObject = (description = "Free-form JSON object."): Typed<"object"> => ({
  type: "object",
  additionalProperties: true,
  description,
});
export const prefixedId = (prefix: string): Typed<"string"> => ({
  type: "string",
  pattern: `^${prefix}`,
  description: `Identifier with the \`${prefix}\` prefix.`,
});

export const nullable = <T extends string>(schema: Typed<T>): NullableSchema => ({
  ...schema,
  type: [schema.type, "null"],
});

/** Counts keyed by the given enum values (every key optional, no other keys). */
export const countsBy = (values: readonly string[]): Schema => ({
  type: "object",
  properties: Object.fromEntries(values.map((v) => [v, count()])),
  additionalProperties: false,
});

// ---------------------------------------------------------------------------------------------
// Object schemas checked against the DTO types of src/upstream/dto.ts at compile time: the
// property map must name exactly the DTO's fields, a field is nullable in the schema iff it is
// nullable in the DTO, and `required` must list exactly the DTO's non-optional fields.

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type FieldSchemas<T> = {
  [K in keyof T]-?: null extends T[K] ? NullableSchema : NonNullSchema;
};
type MissingRequired<T, R extends readonly unknown[]> = [
  Exclude<RequiredKeys<T>, R[number]>,
] extends [never]
  ? unknown
  : { missingRequired: Exclude<RequiredKeys<T>, R[number]> };

/** `"all"` stands for every field, and is accepted only when the DTO has no optional field. */
type AllRequired<T> = [Exclude<keyof T, RequiredKeys<T>>] extends [never] ? "all" : never;

export const dtoSchema =
  <T>() =>
  <const R extends readonly RequiredKeys<T>[]>(
    properties: FieldSchemas<T>,
    required: AllRequired<T> | (R & MissingRequired<T, R>),
    extra: Schema = {},
  ): Schema => {
    const names: readonly PropertyKey[] = required === "all" ? Object.keys(properties) : required;
    return {
      type: "object",
      ...extra,
      properties,
      ...(names.length > 0 ? { required: [...names] } : {}),
    };
  };

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
