import { MAX_ID_LENGTH } from "../upstream/ids.ts";
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
  /** `edge` for the item at `position` of a position-form list: one object per item, no closure. */
  positionEdge(node: T, form: "page" | "offset", position: number): Edge<T>;
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
  const list: ListContext<T> = {
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
    positionEdge(node, form, position) {
      return new PositionEdge(node, form, position, list);
    },
    verify(raw, argument) {
      const { digest, place } = decodeCursor(source.cursorKey, raw, argument);
      // The cursor's own form is checked, not the assumed one: a list whose upstream turned out
      // to page differently keeps accepting the cursors it issued.
      if (digest !== digestFor(place.form)) throw cursorMismatch(source.name, source.filters);
      return place;
    },
  };
  return list;
}

/** A position-form edge; its place (and the item ID it remembers) is read with its cursor. */
class PositionEdge<T> implements Edge<T> {
  node: T;
  readonly #form: "page" | "offset";
  readonly #position: number;
  readonly #list: ListContext<T>;
  #cursor: string | undefined;

  constructor(node: T, form: "page" | "offset", position: number, list: ListContext<T>) {
    this.node = node;
    this.#form = form;
    this.#position = position;
    this.#list = list;
  }

  get cursor(): string {
    this.#cursor ??= this.#list.issue({
      form: this.#form,
      position: this.#position,
      id: itemIdOf(this.#list, this.node),
    });
    return this.#cursor;
  }
}

/** The ID a cursor remembers: none when the item has no usable one. */
function itemIdOf<T>(list: ListContext<T>, node: T): string | null {
  const id = list.source.itemId(node);
  return typeof id === "string" && id.length <= MAX_ID_LENGTH ? id : null;
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
