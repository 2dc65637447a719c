import { UpstreamError } from "../upstream/errors.ts";
import { cursorExpired } from "./errors.ts";
import { type CursorAnswer, ListFormChanged, readListAnswer } from "./list-answer.ts";
import type { ListContext } from "./list-context.ts";
import type { Connection, UpstreamPageParams } from "./types.ts";

/** Where a cursor-form read resumes: an upstream page (null: the first) and items seen on it. */
export interface CursorResume {
  upstreamCursor: string | null;
  skip: number;
}

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
): Promise<Connection<T>> {
  const answer = seed ?? (await fetchCursorPage(list, from, size));
  const pageLength = answer.items.length;
  const nodes = answer.items.slice(from.skip, from.skip + size);
  const edges = nodes.map((node, offset) => {
    const seen = from.skip + offset + 1;
    const resume: CursorResume =
      seen === pageLength && answer.nextCursor !== null
        ? { upstreamCursor: answer.nextCursor, skip: 0 }
        : { upstreamCursor: from.upstreamCursor, skip: seen };
    return { cursor: list.issue({ form: "cursor", ...resume }), node };
  });
  return {
    edges,
    pageInfo: {
      hasNextPage: answer.nextCursor !== null || pageLength > from.skip + nodes.length,
      // Exact is impossible going forward by upstream cursor; Relay allows "after was given".
      hasPreviousPage: hasAfter,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: answer.total,
  };
}

/**
 * Asks for the `skip` items already seen plus `size` more (capped at the list's bound; the
 * caller returns fewer then). `size` 0 still asks for one item so hasNextPage is exact.
 */
async function fetchCursorPage<T>(
  list: ListContext<T>,
  from: CursorResume,
  size: number,
): Promise<CursorAnswer<T>> {
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
  const answer = readListAnswer<T>(body, params);
  if (answer.form !== "cursor") throw new ListFormChanged(answer, from.upstreamCursor === null);
  return answer;
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
