import type { ErrorCode } from "../errors.ts";
import type { UpstreamError } from "../upstream/errors.ts";

/** The catalogue codes a connection error carries: all are the client's to fix (HTTP 400). */
export type ConnectionErrorCode = Extract<
  ErrorCode,
  "BAD_USER_INPUT" | "CURSOR_MISMATCH" | "CURSOR_EXPIRED"
>;

/**
 * An error the connection adapter raises itself, with its catalogue code, as the upstream client
 * raises `UpstreamError`: the gateway maps it (gateway/shared/mask-error.ts). Any other upstream failure
 * is re-thrown untouched. `cause` is the upstream's refusal when the upstream decided.
 */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  readonly code: ConnectionErrorCode;
  /** The argument at fault, when one is (`first`): the catalogue's `extensions.argument`. */
  readonly argument: string | undefined;

  constructor(
    code: ConnectionErrorCode,
    message: string,
    options?: { cause?: UpstreamError; argument?: string },
  ) {
    super(message, options);
    this.code = code;
    this.argument = options?.argument;
  }
}

/** A bad `first`/`last`/`after`/`before`, or a combination the list cannot serve. */
export function invalidConnectionArgument(message: string, argument?: string) {
  return new ConnectionError(
    "BAD_USER_INPUT",
    message,
    argument === undefined ? undefined : { argument },
  );
}

export function cursorNotIssuedHere(argument: "after" | "before") {
  return invalidConnectionArgument(
    `\`${argument}\` is not a cursor issued by this gateway`,
    argument,
  );
}

export function forwardOnlyList(listName?: string) {
  const list = listName === undefined ? "This list" : `The ${listName} list`;
  return invalidConnectionArgument(
    `${list} pages forward only (the upstream pages it by cursor): ` +
      "use `first`/`after`, not `last`/`before`",
  );
}

/**
 * The cursor belongs to another list, other filters or another page form. A cursor carries only
 * a digest of its list, so the filters named are the request's, and said to be the request's.
 */
export function cursorMismatch(listName: string, filters: Record<string, unknown>) {
  return new ConnectionError(
    "CURSOR_MISMATCH",
    "This cursor was issued for another list or other filters than this request's " +
      `(${describeList(listName, filters)}); ` +
      "restart from the first page without `after`/`before`",
  );
}

/** The upstream rejected the cursor it issued (stale, expired, invalidated): restart. */
export function cursorExpired(error: UpstreamError) {
  return new ConnectionError(
    "CURSOR_EXPIRED",
    "The upstream no longer accepts this cursor; restart from the first page",
    { cause: error },
  );
}

/**
 * The item a position cursor points at is no longer near its place (the list changed more than
 * one read can follow, or the item is gone): paging on would repeat or skip items.
 */
export function cursorItemLost(listName: string) {
  return new ConnectionError(
    "CURSOR_EXPIRED",
    `The ${listName} list changed too much since this cursor was issued to find its item again; ` +
      "restart from the first page",
  );
}

/**
 * The upstream now pages this list in another form and cannot resume from the cursor's place
 * (e.g. a position cursor, but the list answers by upstream cursor): the same remedy as expiry.
 */
export function cursorOutlivedListForm(listName: string) {
  return new ConnectionError(
    "CURSOR_EXPIRED",
    `The upstream now pages the ${listName} list differently and cannot resume from this cursor; ` +
      "restart from the first page",
  );
}

/** "agents list with status=ACTIVE, agentId=agt_1" — the list the client asked for now. */
function describeList(listName: string, filters: Record<string, unknown>): string {
  const parts = Object.entries(filters)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return parts.length === 0
    ? `${listName} list without filters`
    : `${listName} list with ${parts.join(", ")}`;
}
