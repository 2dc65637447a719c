import { UpstreamUnavailableError } from "../upstream/errors.ts";
import { MAX_POSITION } from "./cursor.ts";
import { DEFAULT_MAX_SIZE, type UpstreamPageParams } from "./types.ts";

/**
 * One upstream list body, read as the seed states it and no stricter: its shape names its form
 * when it can, else it is read in the form the request asked in.
 */
export type ListAnswer<T> = PositionAnswer<T> | CursorAnswer<T>;

export interface PositionAnswer<T> {
  form: "page" | "offset";
  /** Absolute index of `items[0]`. */
  start: number;
  items: T[];
  total: number | null;
  /** The page size the request asked for: an answer this long may have more after it. */
  asked: number;
  /** The page size the upstream says it used (`pageSize` or `limit`), when it says one. */
  granted: number | null;
}

export interface CursorAnswer<T> {
  form: "cursor";
  items: T[];
  nextCursor: string | null;
  total: number | null;
}

/**
 * Shape rules: a `nextCursor` key means cursor form; `page`/`pageSize` mean page form; `limit`
 * or `offset` mean limit/offset form. An answer that echoes none of them is in the form asked in
 * and starts where the request started (the seed shows no body for operation 7, and says nothing
 * of other lists' echoes). What the seed does state is held: `items` is an array, `nextCursor` a
 * string or null, echoed sizes within 1..100, counts non-negative integers.
 */
export function readListAnswer<T>(
  body: unknown,
  params: UpstreamPageParams,
  isItem?: (value: unknown) => boolean,
): ListAnswer<T> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidList("a JSON object with `items`");
  }
  const fields = body as Record<string, unknown>;
  if (!Array.isArray(fields.items)) throw invalidList("`items` as an array");
  const items = fields.items as T[];
  if (isItem !== undefined && !items.every(isItem)) throw invalidList("`items` of the list's kind");
  const total = optionalCount(fields, "total");
  if ("nextCursor" in fields) {
    const next = fields.nextCursor;
    if (next !== null && typeof next !== "string") throw invalidList("`nextCursor` string or null");
    return { form: "cursor", items, nextCursor: next, total };
  }
  const asked = "pageSize" in params ? params.pageSize : params.limit;
  if ("page" in fields || "pageSize" in fields) {
    const page = requiredSize(fields, "page", MAX_POSITION);
    const pageSize = requiredSize(fields, "pageSize", DEFAULT_MAX_SIZE);
    return { form: "page", start: (page - 1) * pageSize, items, total, asked, granted: pageSize };
  }
  if ("limit" in fields || "offset" in fields) {
    // A missing echo means the request's own value (or the seed's default 0 for `offset`).
    const offset = optionalCount(fields, "offset", MAX_POSITION) ?? offsetAsked(params);
    const limit = "limit" in fields ? requiredSize(fields, "limit", DEFAULT_MAX_SIZE) : null;
    return { form: "offset", start: offset, items, total, asked, granted: limit };
  }
  return silentAnswer(items, total, params, asked);
}

/** An answer that echoes no paging parameter: the form and place the request asked for. */
function silentAnswer<T>(
  items: T[],
  total: number | null,
  params: UpstreamPageParams,
  asked: number,
): ListAnswer<T> {
  if ("page" in params) {
    const start = (params.page - 1) * params.pageSize;
    return { form: "page", start, items, total, asked, granted: null };
  }
  // A cursor request must be answered with the next cursor (seed: cursor form); the first
  // request of a list assumed cursor-form sent only `limit`, which reads as limit/offset from 0.
  if ("cursor" in params && params.cursor !== undefined) throw invalidList("`nextCursor`");
  return { form: "offset", start: offsetAsked(params), items, total, asked, granted: null };
}

function offsetAsked(params: UpstreamPageParams): number {
  return "offset" in params ? params.offset : 0;
}

function optionalCount(
  fields: Record<string, unknown>,
  key: string,
  max = Number.MAX_SAFE_INTEGER,
): number | null {
  const value = fields[key];
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > max) {
    throw invalidList(`\`${key}\` as an integer from 0 to ${max}`);
  }
  return value as number;
}

function requiredSize(fields: Record<string, unknown>, key: string, max: number): number {
  const value = fields[key];
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > max) {
    throw invalidList(`\`${key}\` as an integer from 1 to ${max}`);
  }
  return value as number;
}

function invalidList(expected: string) {
  return new UpstreamUnavailableError(
    "INVALID_RESPONSE",
    `The upstream list body does not follow the REST description: expected ${expected}`,
  );
}
