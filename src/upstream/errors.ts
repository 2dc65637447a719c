import type { JsonObject } from "./json.ts";
import type { RateLimit } from "./rate-limit.ts";

/**
 * The upstream answered with a non-2xx status. Carries everything the seed's error body
 * (`{ error: { code, message, details? }, requestId }`) and the headers say.
 */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  readonly status: number;
  /** `error.code` from the body, e.g. `NOT_FOUND`; `HTTP_<status>` when the body had none. */
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: JsonObject | undefined;
  readonly rateLimit: RateLimit | undefined;
  /**
   * Whole seconds to wait before trying again, fixed when the answer arrived: from
   * `X-RateLimit-Reset`, else from `Retry-After`; undefined when the answer gave neither.
   */
  readonly retryAfter: number | undefined;
  /** Answered by the gateway itself from its memory of a 429, without an upstream call. */
  readonly answeredLocally: boolean;

  /** What the error was made from: a copy of it for another waiter, or for another instance. */
  facts(): ConstructorParameters<typeof UpstreamError>[0] {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      details: this.details,
      rateLimit: this.rateLimit,
      retryAfter: this.retryAfter,
      answeredLocally: this.answeredLocally,
    };
  }

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string | undefined;
    details?: JsonObject | undefined;
    rateLimit?: RateLimit | undefined;
    retryAfter?: number | undefined;
    answeredLocally?: boolean;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.rateLimit = init.rateLimit;
    this.retryAfter = init.retryAfter;
    this.answeredLocally = init.answeredLocally ?? false;
  }
}

/** Every `reason` of an UPSTREAM_UNAVAILABLE error (docs/errors.md). */
export const UNAVAILABLE_REASONS = [
  "TIMEOUT",
  "CONNECTION_REFUSED",
  "CONNECTION_RESET",
  "INVALID_RESPONSE",
  "ABORTED",
  "OPERATION_DEADLINE",
] as const;

export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** The abort reason of a call cut short by its whole operation's deadline (OPERATION_DEADLINE_MS). */
export class OperationDeadlineExceeded extends Error {
  override readonly name = "OperationDeadlineExceeded";

  constructor(deadlineMs: number) {
    super(`the operation's deadline of ${deadlineMs} ms passed`);
  }
}

/**
 * The upstream could not be reached or did not give a usable answer: a timeout, a refused or
 * reset connection, or a body that is not JSON. The message never contains request headers.
 */
export class UpstreamUnavailableError extends Error {
  override readonly name = "UpstreamUnavailableError";
  readonly reason: UnavailableReason;

  constructor(reason: UnavailableReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** The facts of an upstream failure that reach the client in `extensions.upstream`. */
export function upstreamFacts(error: UpstreamError): JsonObject {
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    requestId: error.requestId ?? null,
    details: error.details ?? null,
  };
}

/** A failed call's outcome as metrics label it: the upstream's status, or "unavailable". */
export function outcomeOf(error: unknown): string {
  return error instanceof UpstreamError ? String(error.status) : "unavailable";
}

/**
 * Errors the gateway answered itself, without an upstream call (a 429 from the key's memory, a
 * per-key concurrency refusal): metrics count real upstream calls only. The mark is the error's
 * own property, so it goes wherever the error goes; an UpstreamError's copy carries it as a field.
 */
export function markAnsweredLocally<E extends Error>(error: E): E {
  Object.defineProperty(error, "answeredLocally", { value: true, enumerable: false });
  return error;
}

export function isAnsweredLocally(error: unknown): boolean {
  return (
    error instanceof Error && (error as { answeredLocally?: unknown }).answeredLocally === true
  );
}
