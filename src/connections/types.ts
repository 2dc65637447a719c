import type { CursorKey } from "./cursor.ts";

/**
 * The connection adapter's public shapes: what the schema hands in (a list source and the Relay
 * arguments) and what it gets back (a Relay connection).
 */

/** The REST API's three pagination forms (seed: "Pagination conventions"). */
export type PageForm = "page" | "cursor" | "offset";

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** One edge; its `cursor` may be a getter that issues it when first read (list-context.ts). */
export interface Edge<T> {
  readonly cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Array<Edge<T>>;
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  /** Null when the upstream does not report a total. */
  totalCount: number | null;
}

/** What the adapter asks the upstream for, in the parameter names of the form it uses. */
export type UpstreamPageParams =
  | { page: number; pageSize: number }
  | { cursor?: string; limit: number }
  | { limit: number; offset: number };

export interface ListSource<T> {
  /** e.g. "agents", "conversations"; part of every cursor's digest. */
  name: string;
  /** The form of the first request when no cursor says otherwise. */
  assumedForm: PageForm;
  /** Page size when the client gives neither `first` nor `last` (agents 20, ...). */
  defaultSize: number;
  /** Largest `first`/`last` and upstream page size; 100 when absent. */
  maxSize?: number;
  /** The list's filters (undefined and null values ignored); part of every cursor's digest. */
  filters: Record<string, unknown>;
  /** The key that signs this list's cursors (`CURSOR_SECRET`; see cursor.ts). */
  cursorKey: CursorKey;
  /**
   * The item's ID, remembered in its position cursor so the next page can find it again when
   * the list moved; undefined when the item has none.
   */
  itemId(node: T): string | undefined;
  /** Calls the upstream with these params plus the filters; resolves to the parsed body. */
  fetch(params: UpstreamPageParams): Promise<unknown>;
  /**
   * Whether a value of the answer's `items` can be one of this list's items; an answer holding
   * any other is refused as INVALID_RESPONSE. Absent: any value can.
   */
  isItem?(value: unknown): boolean;
}

export const DEFAULT_MAX_SIZE = 100;
