/**
 * The sandbox's two readings of the seed. Where the seed says "not shown" or leaves a shape open,
 * `standard` makes one legitimate choice and `alternate` another; every such choice is named here
 * and nowhere else (README: "Where the seed is silent"). Operations always build the standard
 * answer; the alternate dialect rewrites it on its way out, so a choice is one entry of this file.
 */
import type { OperationResult } from "./operation-context.ts";

export const DIALECTS = ["standard", "alternate"] as const;
export type DialectName = (typeof DIALECTS)[number];

export function isDialectName(value: unknown): value is DialectName {
  return typeof value === "string" && (DIALECTS as readonly string[]).includes(value);
}

/** One route's answer as the operation built it, before the dialect has its say. */
interface Answer {
  /** The route template, e.g. `GET /v1/agents/{agentId}`. */
  route: string;
  params: Record<string, string>;
  result: OperationResult;
}

/** An error about to be answered with the seed's body. */
interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  requestId: string;
  details: Record<string, unknown> | undefined;
}

export interface Dialect {
  readonly name: DialectName;
  /** Rewrites a successful answer. */
  answer(answer: Answer): OperationResult;
  /** The status and body of an error answer. */
  error(error: ErrorAnswer): { status: number; body: unknown };
  /** Whether `/organization` is served as `/v1/organization` (the seed leaves it open). */
  readonly acceptsUnprefixedPaths: boolean;
  /** The campaigns list's own bound, tighter than the common 100 where the dialect sets one. */
  readonly campaignsMaxLimit: number;
}

const standard: Dialect = {
  name: "standard",
  answer: ({ result }) => result,
  error: ({ status, code, message, requestId, details }) => ({
    status,
    body: {
      error: details === undefined ? { code, message } : { code, message, details },
      requestId,
    },
  }),
  acceptsUnprefixedPaths: false,
  campaignsMaxLimit: 100,
};

/** Alternate error codes: the seed names only NOT_FOUND, so every other string is a choice. */
const ALTERNATE_CODES: Record<string, string> = {
  BAD_REQUEST: "INVALID_REQUEST",
  INVALID_PARAMETER: "INVALID_REQUEST",
  UNAUTHORIZED: "UNAUTHENTICATED",
  FORBIDDEN: "PERMISSION_DENIED",
  VALIDATION_ERROR: "UNPROCESSABLE_ENTITY",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  INTERNAL_ERROR: "INTERNAL",
};

type Rewrite = (result: OperationResult, params: Record<string, string>) => OperationResult;

/** A delete answered 200 with a small body instead of 204. */
const deletedBody =
  (param: string): Rewrite =>
  (result, params) =>
    result.status === 204
      ? { ...result, status: 200, body: { id: params[param], deleted: true } }
      : result;

const withBody =
  (rewrite: (body: Record<string, unknown>) => unknown): Rewrite =>
  (result) =>
    isObject(result.body) ? { ...result, body: rewrite(result.body) } : result;

/** A conversation item whose parties are nested references, not `agentId`/`contactId`. */
function nestedParties(item: unknown): unknown {
  if (!isObject(item)) return item;
  const { agentId, contactId, ...rest } = item;
  return {
    ...rest,
    agent: agentId === null || agentId === undefined ? null : { id: agentId },
    contact: contactId === null || contactId === undefined ? null : { id: contactId },
  };
}

const ALTERNATE_ANSWERS: Record<string, Rewrite> = {
  // Operation 7: the items and a total; neither `limit` nor `offset` is echoed.
  "GET /v1/conversations": withBody(({ items, total }) => ({
    items: Array.isArray(items) ? items.map(nestedParties) : items,
    total,
  })),
  // Operation 8: exactly the seed's four fields.
  "GET /v1/conversations/{conversationId}/status": withBody(
    ({ id, duration, startedAt, endedAt }) => ({ id, duration, startedAt, endedAt }),
  ),
  // Operation 13: a bare array.
  "GET /v1/tools/catalog": withBody(({ items }) => items),
  // Operations 9 and 11: 200 with what was deleted.
  "DELETE /v1/properties/{propertyDefinitionId}": deletedBody("propertyDefinitionId"),
  "DELETE /v1/campaigns/{campaignId}": deletedBody("campaignId"),
  // Operation 12: 202 Accepted with no body ("retry initiated").
  "POST /v1/campaigns/{campaignId}/retry": () => ({ status: 202 }),
  // Operation 6: 204, no body.
  "POST /v1/phone-numbers/assign": () => ({ status: 204 }),
  // Assumed agent creation: 200 with the agent, no Location.
  "POST /v1/agents": ({ body }) => ({ status: 200, body }),
};

const alternate: Dialect = {
  name: "alternate",
  answer: ({ route, params, result }) => {
    const rewritten = ALTERNATE_ANSWERS[route]?.(result, params) ?? result;
    return { ...rewritten, body: offsetTimestamps(rewritten.body) };
  },
  error: ({ status, code, message, details }) => {
    // A rejected cursor is 410 Gone; the overview's error example carries no requestId.
    if (code === "INVALID_CURSOR") {
      return { status: 410, body: { error: { code: "CURSOR_EXPIRED", message } } };
    }
    const renamed = ALTERNATE_CODES[code] ?? code;
    return {
      status,
      body: {
        error:
          details === undefined ? { code: renamed, message } : { code: renamed, message, details },
      },
    };
  },
  acceptsUnprefixedPaths: true,
  campaignsMaxLimit: 50,
};

export function dialect(name: DialectName): Dialect {
  return name === "alternate" ? alternate : standard;
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

/** `2026-01-02T03:04:05.678Z` → `2026-01-02T03:04:05.678+00:00` (the same instant), at every depth. */
function offsetTimestamps(value: unknown): unknown {
  if (typeof value === "string") {
    const match = ISO_UTC.exec(value);
    return match ? `${match[1]}+00:00` : value;
  }
  if (Array.isArray(value)) return value.map(offsetTimestamps);
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, offsetTimestamps(member)]),
    );
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
