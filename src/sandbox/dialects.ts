/**
 * Two readings of the seed where it is silent (docs/upstream.md: "Silent spots of the seed"). Every choice
 * the sandbox makes at a silent spot is named here, once; operations read `ctx.dialect.<choice>`
 * instead of testing the dialect's name. `standard` is the sandbox as it always was; `alternate`
 * makes another legitimate choice at each spot, so the gateway is proven against both.
 */
export const DIALECT_NAMES = ["standard", "alternate"] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/** Paging fields operation 7 may echo next to `items`. */
export type ListEchoField = "total" | "limit" | "offset";

export interface Dialect {
  name: DialectName;
  /** Operation 7's answer: which of total/limit/offset it carries besides `items`. */
  conversationListEcho: readonly ListEchoField[];
  /** Operation 7's free-text parameter ("the parameter name is not shown"). */
  searchParam: "search" | "q";
  /** Conversation items: flat `agentId`/`contactId`, or nested `agent: { id }`/`contact: { id }`. */
  conversationRefs: "flat" | "nested";
  /** Operation 8: the seed's four fields only, or those plus status, agentId, contactId... */
  statusViewExtras: boolean;
  /** Unit of `duration` ("unit: not shown"). */
  durationUnit: "seconds" | "milliseconds";
  /** Dates: `2026-01-31T09:00:00.000Z`, or without milliseconds and with `+00:00`. */
  dateFormat: "millis-z" | "seconds-offset";
  /** Deletes (operations 9 and 11): 204 without a body, or 200 `{ id, deleted: true }`. */
  deleteAnswer: "no-content" | "deleted-body";
  /** Operation 6: 200 with the phone number, or 200 `{ phoneNumber, assigned: true }`. */
  assignAnswer: "phone-number" | "envelope";
  /** Operation 12: 200 `{ campaignId, retriedRows, status }`, or 200 with the whole campaign. */
  retryAnswer: "summary" | "campaign";
  /** Assumed agent creation: 201 with Location, or 200 without. */
  createAgentStatus: 201 | 200;
  /** Operation 13: `{ items: [...] }`, or a bare array. */
  toolCatalog: "items" | "array";
  /** Operation 1/2: fields beyond the writable ones (id, createdAt, updatedAt), or only `id`. */
  organizationTimestamps: boolean;
  /** Status of a rejected cursor ("not shown"): 400, or 422. */
  invalidCursorStatus: 400 | 422;
  /** The campaigns list's own tighter bound on `limit` (the default of the option). */
  campaignsMaxLimit: number;
  /** `requestId` inside error bodies (the overview example has none). */
  errorRequestId: boolean;
  /**
   * Error codes beyond NOT_FOUND: the sandbox's own catalogue (INVALID_PARAMETER, VALIDATION_ERROR,
   * RATE_LIMITED...), or one generic code per HTTP status (BAD_REQUEST, UNPROCESSABLE_ENTITY...).
   */
  errorCodes: "specific" | "per-status";
  /** 401/403 bodies: message only, or with `details.reason` (missing_key, invalid_key, read_only). */
  authDetails: boolean;
  /** Paths without `/v1` ("not shown"): 404, or served like their `/v1` twin. */
  unprefixedPaths: boolean;
  /** Default rate-limit values ("not shown"): requests per window and window length. */
  rateLimit: number;
  rateWindowSeconds: number;
}

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  standard: {
    name: "standard",
    conversationListEcho: ["total", "limit", "offset"],
    searchParam: "search",
    conversationRefs: "flat",
    statusViewExtras: true,
    durationUnit: "seconds",
    dateFormat: "millis-z",
    deleteAnswer: "no-content",
    assignAnswer: "phone-number",
    retryAnswer: "summary",
    createAgentStatus: 201,
    toolCatalog: "items",
    organizationTimestamps: true,
    invalidCursorStatus: 400,
    campaignsMaxLimit: 100,
    errorRequestId: true,
    errorCodes: "specific",
    authDetails: false,
    unprefixedPaths: false,
    rateLimit: 100_000,
    rateWindowSeconds: 60,
  },
  // The independent reading of the seed: operation 7 answers items and a total only.
  alternate: {
    name: "alternate",
    conversationListEcho: ["total"],
    searchParam: "q",
    conversationRefs: "nested",
    statusViewExtras: false,
    durationUnit: "milliseconds",
    dateFormat: "seconds-offset",
    deleteAnswer: "deleted-body",
    assignAnswer: "envelope",
    retryAnswer: "campaign",
    createAgentStatus: 200,
    toolCatalog: "array",
    organizationTimestamps: false,
    invalidCursorStatus: 422,
    campaignsMaxLimit: 50,
    errorRequestId: false,
    errorCodes: "per-status",
    authDetails: true,
    unprefixedPaths: true,
    rateLimit: 50_000,
    rateWindowSeconds: 3_600,
  },
};

export function isDialectName(value: string): value is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(value);
}

/** The generic code of the `per-status` catalogue; NOT_FOUND stays, as the seed names it. */
const PER_STATUS_CODES: Readonly<Record<number, string>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  422: "UNPROCESSABLE_ENTITY",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL",
  502: "BAD_GATEWAY",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** The `error.code` the dialect sends for a sandbox failure of `code` answered with `status`. */
export function dialectErrorCode(dialect: Dialect, code: string, status: number): string {
  if (dialect.errorCodes === "specific") return code;
  return PER_STATUS_CODES[status] ?? code;
}

/**
 * A stats body (operations 5 and 10, "body: not shown") in the dialect's unit: its duration
 * fields are named for their unit, `totalDurationSeconds: 104` or `totalDurationMs: 104000`.
 */
export function dialectStats(dialect: Dialect, stats: object): Record<string, unknown> {
  if (dialect.durationUnit === "seconds") return { ...stats };
  return Object.fromEntries(
    Object.entries(stats).map(([key, value]) =>
      key.endsWith("DurationSeconds") && typeof value === "number"
        ? [key.replace(/Seconds$/, "Ms"), value * 1000]
        : [key, value],
    ),
  );
}

/** The duration value the dialect sends for whole seconds. */
export function dialectDuration(dialect: Dialect, seconds: number): number {
  return dialect.durationUnit === "seconds" ? seconds : seconds * 1000;
}

const ISO_MILLIS_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z$/;

/**
 * Rewrites the date-time fields of an answer (`createdAt`, `startedAt`... every key ending in
 * `At`) into the dialect's format, so the operations keep producing one format (toISOString) and
 * the choice lives here alone. Free-form values (metadata, settings) are left as stored.
 */
export function formatDates(dialect: Dialect, value: unknown, key = ""): unknown {
  if (dialect.dateFormat === "millis-z") return value;
  if (typeof value === "string") {
    const match = key.endsWith("At") ? ISO_MILLIS_Z.exec(value) : null;
    return match === null ? value : `${match[1]}+00:00`;
  }
  if (Array.isArray(value)) return value.map((item) => formatDates(dialect, item));
  if (value !== null && typeof value === "object") {
    if (key === "metadata" || key === "settings") return value;
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, formatDates(dialect, item, name)]),
    );
  }
  return value;
}
