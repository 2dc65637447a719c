import { UpstreamError } from "../upstream/errors.ts";
import { cursorExpired } from "./errors.ts";
import { type CursorAnswer, type PositionAnswer, readListAnswer } from "./list-answer.ts";
import { type ListContext, pageInfoOf } from "./list-context.ts";
import type { Connection, UpstreamPageParams } from "./types.ts";

/** Where a cursor-form read resumes: an upstream page (null: the first) and items seen on it. */
export interface CursorResume {
  upstreamCursor: string | null;
  skip: number;
}

/** A connection, or the upstream's position-form answer when the list turned out to page so. */
export type CursorResult<T> =
  | { connection: Connection<T> }
  | { switched: { answer: PositionAnswer<T>; fromListStart: boolean } };

/**
 * Serves a cursor-form list forward from `from`, in one request. Every edge's cursor resumes
 * right after that edge, so a client may continue from any edge without gaps or duplicates.
 * `seed` is the first page when another form's request already fetched it.
 */
export async function resolveCursorConnection<T>(
  list: ListContext<T>,
  from: CursorResume,
  size: number,
  hasAfter: boolean,
  seed?: CursorAnswer<T>,
): Promise<CursorResult<T>> {
  const read = seed ?? (await fetchCursorPage(list, from, size));
  if (read.form !== "cursor") {
    return { switched: { answer: read, fromListStart: from.upstreamCursor === null } };
  }
  const answer = read;
  const pageLength = answer.items.length;
  const nodes = answer.items.slice(from.skip, from.skip + size);
  const edges = nodes.map((node, offset) => {
    const seen = from.skip + offset + 1;
    const resume: CursorResume =
      seen === pageLength && answer.nextCursor !== null
        ? { upstreamCursor: answer.nextCursor, skip: 0 }
        : { upstreamCursor: from.upstreamCursor, skip: seen };
    return list.edge(node, () => ({ form: "cursor", ...resume }));
  });
  const connection: Connection<T> = {
    edges,
    pageInfo: pageInfoOf(edges, {
      hasNextPage: answer.nextCursor !== null || pageLength > from.skip + nodes.length,
      // Exact is impossible going forward by upstream cursor; Relay allows "after was given".
      hasPreviousPage: hasAfter,
    }),
    totalCount: answer.total,
  };
  return { connection };
}

/**
 * Asks for the `skip` items already seen plus `size` more (capped at the list's bound; the
 * caller returns fewer then). `size` 0 still asks for one item so hasNextPage is exact.
 */
async function fetchCursorPage<T>(
  list: ListContext<T>,
  from: CursorResume,
  size: number,
): Promise<CursorAnswer<T> | PositionAnswer<T>> {
  const limit = Math.min(from.skip + Math.max(size, 1), list.maxSize);
  const params: UpstreamPageParams =
    from.upstreamCursor === null ? { limit } : { cursor: from.upstreamCursor, limit };
  let body: unknown;
  try {
    body = await list.source.fetch(params);
  } catch (error) {
    if (from.upstreamCursor !== null && isCursorRejection(error)) throw cursorExpired(error);
    throw error;
  }
  return readListAnswer<T>(body, params, list.source.isItem);
}

/**
 * The seed does not say which status rejects a stale cursor, so any 4xx does, except the ones
 * that are about the caller (401, 403) or the rate (429) rather than the cursor.
 */
function isCursorRejection(error: unknown): error is UpstreamError {
  return (
    error instanceof UpstreamError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 401 &&
    error.status !== 403 &&
    error.status !== 429
  );
}
