import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCursorKey, encodeCursor, listDigest } from "../../src/connections/cursor.ts";
import type {
  Connection,
  ListSource,
  PageForm,
  UpstreamPageParams,
} from "../../src/connections/types.ts";
import { UpstreamError } from "../../src/upstream/errors.ts";

/**
 * A purpose-built upstream serving the items 0..count-1 at `/items` in one of the seed's three
 * list forms, recording every request's path and query exactly as received.
 */
export interface ListUpstreamOptions {
  form: PageForm;
  count: number;
  /** Whether answers carry `total` (default: yes for page/offset, no for cursor). */
  withTotal?: boolean;
  /** A tighter endpoint bound: never more items than this per answer. */
  maxItems?: number;
  /** Page form only: answer with the bounded `pageSize` instead of echoing the asked one. */
  clampPageSize?: boolean;
  /** Reject every request that carries a `cursor` with this status. */
  rejectCursorsWith?: number;
  /** Answer with a body of no known list shape. */
  unknownShape?: boolean;
  /** Position forms: whether answers echo their paging parameters (default: yes). */
  echo?: boolean;
  /** Answers every request with this body instead (status 200). */
  body?: unknown;
}

export interface ListUpstream {
  url: string;
  /** e.g. "/items?page=2&pageSize=10", in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

const DEFAULT_SIZE: Record<PageForm, number> = { page: 20, cursor: 25, offset: 50 };

export async function startListUpstream(options: ListUpstreamOptions): Promise<ListUpstream> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const { status, body } = answer(
      options,
      new URL(req.url ?? "/", "http://upstream").searchParams,
    );
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Reply {
  status: number;
  body: unknown;
}

function answer(options: ListUpstreamOptions, query: URLSearchParams): Reply {
  const { form, count } = options;
  const withTotal = options.withTotal ?? form !== "cursor";
  const total = withTotal ? { total: count } : {};
  const cap = (asked: number) => Math.min(asked, options.maxItems ?? asked);
  const slice = (start: number, size: number) =>
    Array.from({ length: Math.max(0, Math.min(size, count - start)) }, (_, i) => start + i);
  if (options.unknownShape) return reply(200, { data: slice(0, 3) });
  if (options.body !== undefined) return reply(200, options.body);

  if (form === "page") {
    const page = integer(query.get("page"), 1);
    const pageSize = integer(query.get("pageSize"), DEFAULT_SIZE.page);
    if (page < 1 || pageSize < 1 || pageSize > 100) return invalid("page/pageSize");
    const granted = options.clampPageSize ? cap(pageSize) : pageSize;
    const items = slice((page - 1) * granted, cap(pageSize));
    const echo = (options.echo ?? true) ? { page, pageSize: granted } : {};
    return reply(200, { items, ...total, ...echo });
  }
  if (form === "offset") {
    const limit = integer(query.get("limit"), DEFAULT_SIZE.offset);
    const offset = integer(query.get("offset"), 0);
    if (limit < 1 || limit > 100 || offset < 0) return invalid("limit/offset");
    const echo = (options.echo ?? true) ? { limit: cap(limit), offset } : {};
    return reply(200, { items: slice(offset, cap(limit)), ...total, ...echo });
  }
  const cursor = query.get("cursor");
  if (cursor !== null && options.rejectCursorsWith !== undefined) {
    return reply(options.rejectCursorsWith, {
      error: { code: "INVALID_CURSOR", message: "Cursor rejected", details: { cursor } },
      requestId: "req_cursor",
    });
  }
  const start = cursor === null ? 0 : decodeUpstreamCursor(cursor);
  const limit = integer(query.get("limit"), DEFAULT_SIZE.cursor);
  if (start === undefined) return invalid("cursor");
  if (limit < 1 || limit > 100) return invalid("limit");
  const items = slice(start, cap(limit));
  const end = start + items.length;
  const nextCursor = end < count ? upstreamCursorAt(end) : null;
  return reply(200, { items, nextCursor, ...total });
}

/** The fake upstream's own (opaque to the adapter) cursor for the page starting at `index`. */
export function upstreamCursorAt(index: number): string {
  return Buffer.from(`at:${index}`).toString("base64url");
}

function decodeUpstreamCursor(cursor: string): number | undefined {
  const match = /^at:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function integer(value: string | null, fallback: number): number {
  return value === null ? fallback : Number(value);
}

function invalid(what: string): Reply {
  return reply(400, { error: { code: "INVALID_PARAMS", message: `bad ${what}` }, requestId: "r" });
}

function reply(status: number, body: unknown): Reply {
  return { status, body };
}

/** The key every test list signs its cursors with. */
export const TEST_CURSOR_KEY = createCursorKey("test-cursor-secret-of-at-least-32-characters");

/** A list source over the upstream: params, then filters, as query parameters in that order. */
export function itemsSource(
  upstream: ListUpstream,
  overrides: Partial<ListSource<number>> = {},
): ListSource<number> {
  const filters = overrides.filters ?? {};
  return {
    name: "items",
    assumedForm: "page",
    defaultSize: 20,
    filters,
    cursorKey: TEST_CURSOR_KEY,
    itemId: (item) => `item_${item}`,
    fetch: (params) => fetchItems(upstream.url, params, filters),
    ...overrides,
  };
}

async function fetchItems(
  base: string,
  params: UpstreamPageParams,
  filters: Record<string, unknown>,
): Promise<unknown> {
  const query = new URLSearchParams();
  for (const [key, value] of [...Object.entries(params), ...Object.entries(filters)]) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const response = await fetch(`${base}/items?${query}`);
  const body = (await response.json()) as {
    error?: { code: string; message: string; details?: Record<string, unknown> };
    requestId?: string;
  };
  if (response.ok) return body;
  throw new UpstreamError({
    status: response.status,
    code: body.error?.code ?? `HTTP_${response.status}`,
    message: body.error?.message ?? response.statusText,
    requestId: body.requestId,
    details: body.error?.details,
  });
}

const running: ListUpstream[] = [];

/** Starts an upstream that `closeListUpstreams` (call it in afterEach) will close. */
export async function listUpstream(options: ListUpstreamOptions): Promise<ListUpstream> {
  const upstream = await startListUpstream(options);
  running.push(upstream);
  return upstream;
}

export async function closeListUpstreams(): Promise<void> {
  await Promise.all(running.splice(0).map((upstream) => upstream.close()));
}

/** An upstream of `count` numbered items in a position form, and the list source over it. */
export async function positionList(
  form: "page" | "offset",
  count: number,
  options: Omit<ListUpstreamOptions, "form" | "count"> = {},
) {
  const upstream = await listUpstream({ form, count, ...options });
  return { upstream, source: itemsSource(upstream, { assumedForm: form }) };
}

/** The numbers from `from` up to, not including, `to`. */
export const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => from + i);

/**
 * The cursor this gateway issues for the item at `position` of the `items` list, remembering the
 * item's ID (null: a cursor that does not, so nothing is checked).
 */
export function positionCursor(
  form: "page" | "offset",
  position: number,
  filters: Record<string, unknown> = {},
  id: string | null = `item_${position}`,
): string {
  return encodeCursor(TEST_CURSOR_KEY, listDigest("items", form, filters), {
    form,
    position,
    id,
  });
}

/** What a client reads off a connection, in one comparable object. */
export function summary<T>(connection: Connection<T>) {
  return {
    nodes: connection.edges.map((edge) => edge.node),
    hasNextPage: connection.pageInfo.hasNextPage,
    hasPreviousPage: connection.pageInfo.hasPreviousPage,
    totalCount: connection.totalCount,
  };
}
