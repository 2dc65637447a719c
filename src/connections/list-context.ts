import { type CursorPlace, decodeCursor, encodeCursor, listDigest } from "./cursor.ts";
import { cursorMismatch } from "./errors.ts";
import type { Connection, Edge, ListSource, PageForm } from "./types.ts";

/** One list as one resolution sees it: its source, size bound and cursor issuing/checking. */
export interface ListContext<T> {
  source: ListSource<T>;
  maxSize: number;
  /** A gateway cursor for this list, these filters and the place's form. */
  issue(place: CursorPlace): string;
  /**
   * An edge whose cursor is issued when it is first read: a cursor is an HMAC, and a client that
   * selects only `nodes` (or `edges { node }`) reads none of them.
   */
  edge(node: T, place: () => CursorPlace): Edge<T>;
  /** Decodes a client cursor; CURSOR_MISMATCH when it belongs to another list or filters. */
  verify(raw: string, argument: "after" | "before"): CursorPlace;
}

export function createListContext<T>(source: ListSource<T>, maxSize: number): ListContext<T> {
  const digests = new Map<PageForm, string>();
  const digestFor = (form: PageForm): string => {
    let digest = digests.get(form);
    if (digest === undefined) {
      digest = listDigest(source.name, form, source.filters);
      digests.set(form, digest);
    }
    return digest;
  };
  const issue = (place: CursorPlace) =>
    encodeCursor(source.cursorKey, digestFor(place.form), place);
  return {
    source,
    maxSize,
    issue,
    edge(node, place) {
      let cursor: string | undefined;
      return {
        node,
        get cursor() {
          cursor ??= issue(place());
          return cursor;
        },
      };
    },
    verify(raw, argument) {
      const { digest, place } = decodeCursor(source.cursorKey, raw, argument);
      // The cursor's own form is checked, not the assumed one: a list whose upstream turned out
      // to page differently keeps accepting the cursors it issued.
      if (digest !== digestFor(place.form)) throw cursorMismatch(source.name, source.filters);
      return place;
    },
  };
}

/**
 * A page's info, its start and end cursors read from its edges only when a client selects them
 * (each is an edge's lazily issued cursor).
 */
export function pageInfoOf<T>(
  edges: ReadonlyArray<Edge<T>>,
  has: { hasNextPage: boolean; hasPreviousPage: boolean },
): Connection<T>["pageInfo"] {
  return {
    hasNextPage: has.hasNextPage,
    hasPreviousPage: has.hasPreviousPage,
    get startCursor() {
      return edges[0]?.cursor ?? null;
    },
    get endCursor() {
      return edges.at(-1)?.cursor ?? null;
    },
  };
}
