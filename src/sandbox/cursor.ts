import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ApiError } from "./error-codes.ts";

/** Where a cursor-form list stopped: the keyset of the last item returned. */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

/** What a cursor is bound to: a cursor is only valid for the same org, filters and sort. */
export interface CursorScope {
  organizationId: string;
  /** The list operation, e.g. "campaigns". */
  list: string;
  /** Filters in a stable form, e.g. { status: "RUNNING" } (absent filters left out). */
  filters: Record<string, string>;
  sort: string;
}

interface CursorPayload {
  v: 1;
  scope: string;
  after: CursorPosition;
  issuedAt: number;
}

function scopeKey(scope: CursorScope): string {
  const filters = Object.entries(scope.filters).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([scope.organizationId, scope.list, filters, scope.sort]);
}

function invalidCursor(reason: string, status: number): ApiError {
  return new ApiError(
    "INVALID_CURSOR",
    "The cursor is invalid or stale; restart from the first page.",
    { parameter: "cursor", reason },
    {},
    status,
  );
}

/**
 * Opaque cursors: base64url JSON plus an HMAC-SHA256 under a secret drawn per sandbox, so a
 * cursor cannot be forged, altered, or carried to another sandbox, organization or filter set.
 */
export class CursorCodec {
  readonly #secret = randomBytes(32);
  readonly #ttlMs: number;
  /** The seed does not say which status rejects a cursor; the dialect does. */
  readonly #rejectStatus: number;

  constructor(ttlMs: number, rejectStatus = 400) {
    this.#ttlMs = ttlMs;
    this.#rejectStatus = rejectStatus;
  }

  #sign(data: string): Buffer {
    return createHmac("sha256", this.#secret).update(data).digest();
  }

  encode(scope: CursorScope, after: CursorPosition, nowMs: number): string {
    const payload: CursorPayload = { v: 1, scope: scopeKey(scope), after, issuedAt: nowMs };
    const data = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${data}.${this.#sign(data).toString("base64url")}`;
  }

  /** The position to resume after; throws 400 INVALID_CURSOR for anything but a live match. */
  decode(cursor: string, scope: CursorScope, nowMs: number): CursorPosition {
    const [data, signature, extra] = cursor.split(".");
    if (data === undefined || signature === undefined || extra !== undefined) {
      throw invalidCursor("malformed", this.#rejectStatus);
    }
    const expected = this.#sign(data);
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalidCursor("signature mismatch", this.#rejectStatus);
    }
    const payload = JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as CursorPayload;
    if (payload.scope !== scopeKey(scope)) {
      throw invalidCursor(
        "issued for another organization, filter set or sort order",
        this.#rejectStatus,
      );
    }
    if (nowMs - payload.issuedAt > this.#ttlMs) throw invalidCursor("expired", this.#rejectStatus);
    return payload.after;
  }
}
