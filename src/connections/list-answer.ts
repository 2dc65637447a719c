import { UpstreamUnavailableError } from "../upstream/errors.ts";
import type { UpstreamPageParams } from "./types.ts";

/**
 * One upstream list body, recognised by its shape rather than by the form we asked in, so a list
 * whose real form differs from the assumption still pages correctly.
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
 * Shape rules: a `nextCursor` key means cursor form; numeric `page` and `pageSize` mean page
 * form; a numeric `offset` or `limit` means limit/offset form. Anything else is an upstream
 * fault, not the client's.
 */
export function readListAnswer<T>(body: unknown, params: UpstreamPageParams): ListAnswer<T> {
  if (
    typeof body !== "object" ||
    body === null ||
    !Array.isArray((body as { items?: unknown }).items)
  ) {
    throw unknownShape();
  }
  const fields = body as Record<string, unknown> & { items: T[] };
  const items = fields.items;
  const total = isCount(fields.total) ? fields.total : null;
  if ("nextCursor" in fields) {
    const next = fields.nextCursor;
    if (next !== null && typeof next !== "string") throw unknownShape();
    return { form: "cursor", items, nextCursor: next, total };
  }
  const asked = "pageSize" in params ? params.pageSize : params.limit;
  if (isCount(fields.page) && isCount(fields.pageSize) && fields.page >= 1) {
    const start = (fields.page - 1) * fields.pageSize;
    return { form: "page", start, items, total, asked, granted: fields.pageSize };
  }
  if (isCount(fields.offset) || isCount(fields.limit)) {
    // Without an `offset` the upstream used its default (0) unless we sent one ourselves.
    const start = isCount(fields.offset) ? fields.offset : "offset" in params ? params.offset : 0;
    const granted = isCount(fields.limit) ? fields.limit : null;
    return { form: "offset", start, items, total, asked, granted };
  }
  throw unknownShape();
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function unknownShape() {
  return new UpstreamUnavailableError(
    "INVALID_RESPONSE",
    "The upstream list body has an unknown shape: expected `items` with `nextCursor`, " +
      "`page`/`pageSize` or `limit`/`offset`",
  );
}

/**
 * Raised inside a resolver when the upstream answered in a form other than the one asked for
 * and the resolver cannot go on in that form itself; `resolveConnection` decides whether the
 * other form's resolver can carry on from this answer.
 */
export class ListFormChanged<T> extends Error {
  override readonly name = "ListFormChanged";
  readonly answer: ListAnswer<T>;
  /** The request started at the list's first item, so the answer is the list's first page. */
  readonly fromListStart: boolean;

  constructor(answer: ListAnswer<T>, fromListStart: boolean) {
    super(`The upstream list answered in ${answer.form} form`);
    this.answer = answer;
    this.fromListStart = fromListStart;
  }
}
