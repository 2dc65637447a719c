/**
 * One authenticated operation of the document: bearer security, the rate-limit headers on its
 * success, the errors every operation may answer, and the mark of an assumed operation. Then the
 * shapes the paths repeat, built once: a tag's path items (each path's `{name}` parameters from
 * one table), the read of one resource, a delete.
 */
import { SANDBOX_ID_PREFIX } from "../ids.ts";
import type { SchemaName } from "./components.ts";
import { type ErrorStatus, errorResponses, ok, pathId, ref, type Schema } from "./helpers.ts";

export const BEARER_SCHEME = "bearerAuth";

const ASSUMED =
  "Assumed operation: the seed mentions it but does not show it; the sandbox follows the " +
  "seed's conventions.";

export type OperationSpec = {
  tag: string;
  summary: string;
  description?: string;
  parameters?: Schema[];
  requestBody?: Schema;
  /** Success responses by status. */
  success: Record<string, Schema>;
  /** Error statuses besides those in ALWAYS. */
  errors?: ErrorStatus[];
  assumed?: boolean;
};

/** Any authenticated operation may answer these (400: e.g. an unknown query parameter). */
const ALWAYS: ErrorStatus[] = [400, 401, 429, 500];

/** An authenticated operation: bearer security, rate-limit headers, the common errors. */
export const op = (operationId: string, o: OperationSpec): Schema => {
  const description = o.assumed
    ? [ASSUMED, o.description].filter(Boolean).join(" ")
    : o.description;
  return {
    operationId,
    tags: [o.tag],
    summary: o.summary,
    ...(description ? { description } : {}),
    ...(o.assumed ? { "x-assumed": true } : {}),
    security: [{ [BEARER_SCHEME]: [] }],
    ...(o.parameters ? { parameters: o.parameters } : {}),
    ...(o.requestBody ? { requestBody: o.requestBody } : {}),
    responses: {
      ...o.success,
      ...errorResponses([...(o.errors ?? []), ...ALWAYS].sort((a, b) => a - b)),
      default: { $ref: "#/components/responses/UnexpectedError" },
    },
  };
};

/** Writes may also answer 403 (a read-only key). */
export const WRITE: ErrorStatus[] = [403];

/** Every path parameter, by the name it has in the paths. */
const PATH_PARAMETERS: Record<string, Schema> = {
  agentId: pathId("agentId", "Agent", SANDBOX_ID_PREFIX.agent),
  campaignId: pathId("campaignId", "Campaign", SANDBOX_ID_PREFIX.campaign),
  contactId: pathId("contactId", "Contact", SANDBOX_ID_PREFIX.contact),
  conversationId: pathId("conversationId", "Conversation", SANDBOX_ID_PREFIX.conversation),
  documentId: pathId("documentId", "Document", SANDBOX_ID_PREFIX.document),
  propertyDefinitionId: pathId(
    "propertyDefinitionId",
    "Property definition",
    SANDBOX_ID_PREFIX.property,
  ),
};

export type Spec = Omit<OperationSpec, "tag"> & { operationId: string };
type PathItem = Partial<Record<"get" | "post" | "patch" | "delete", Spec>>;

/** One tag's path items: each operation gets the tag, and its path's parameters first. */
export function tagged(tag: string, items: Record<string, PathItem>) {
  const pathItem = (path: string, item: PathItem) => {
    const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
      const parameter = PATH_PARAMETERS[name ?? ""];
      if (parameter === undefined) throw new Error(`no path parameter ${name} (${path})`);
      return parameter;
    });
    const operations = Object.entries(item).map(([method, spec]) => {
      const { operationId, parameters = [], ...rest } = spec;
      const all = [...inPath, ...parameters];
      return [
        method,
        op(operationId, { ...rest, tag, ...(all.length ? { parameters: all } : {}) }),
      ];
    });
    return [path, Object.fromEntries(operations)] as const;
  };
  return Object.fromEntries(Object.entries(items).map(([path, item]) => pathItem(path, item)));
}

/** A read of one resource: 200 with `schema`, 404 when there is none. */
export const readOne = (summary: string, answer: string, schema: SchemaName) => ({
  summary,
  success: { 200: ok(answer, ref(schema)) },
  errors: [404 as const],
});

/** A delete: 204 without a body, 404 when there is nothing to delete. */
export const DELETED = { success: { 204: ok("Deleted.") }, errors: [...WRITE, 404 as const] };
