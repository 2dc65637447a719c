import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A purpose-built upstream for what the sandbox cannot show: lists answering in any of the seed's
 * three page forms (page/pageSize, cursor, limit/offset), a tighter bound served as a short page,
 * no `total`, no echo, cursor rejections with any status, bodies of no known shape. One server
 * serves any number of routes; each route is read per request, so a test may rewrite it between
 * requests. Used by the connection adapter's unit tests and the gateway's end-to-end tests alike.
 */
export interface ListRoute {
  form: "page" | "cursor" | "offset";
  /** The list, in order; without it, the numbers 0..count-1. */
  items?: readonly unknown[];
  count?: number;
  /** Whether answers carry `total` (default: yes for page/offset, no for cursor, as the seed). */
  withTotal?: boolean;
  /** A tighter endpoint bound: never more items than this per answer, whatever was asked. */
  maxItems?: number;
  /** Page form only: answer with the bounded `pageSize` instead of echoing the asked one. */
  clampPageSize?: boolean;
  /** Every request carrying a `cursor` is answered with this status (seed error body). */
  rejectCursorsWith?: number;
  /** The error code of that rejection (default INVALID_CURSOR). */
  rejectionCode?: string;
  /** Answer with a body of no known list shape. */
  unknownShape?: boolean;
  /** Whether position-form answers echo their paging parameters (default: yes). */
  echo?: boolean;
  /** Answers every request with this body instead (status 200). */
  body?: unknown;
}

export interface ListUpstream {
  url: string;
  /** Every request's path and query as received, e.g. "/items?page=2&pageSize=10", in order. */
  requests: string[];
  /** The requests since the last call, like the harness records them: "GET /v1/agents?page=1". */
  takeRequests(): string[];
  close(): Promise<void>;
}

const DEFAULT_SIZE = { page: 20, cursor: 25, offset: 50 } as const;

/** Serves each route at its path (e.g. "/items", "/v1/agents"); any other path answers 404. */
export async function startListUpstream(routes: Record<string, ListRoute>): Promise<ListUpstream> {
  const requests: string[] = [];
  let taken: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    requests.push(req.url ?? "");
    taken.push(`${req.method} ${req.url}`);
    const route = routes[url.pathname];
    const { status, body } = route
      ? answer(route, url.searchParams)
      : errorReply(404, "NOT_FOUND", `No route ${url.pathname}`);
    res.writeHead(status, {
      "content-type": "application/json",
      "x-ratelimit-limit": "1000",
      "x-ratelimit-remaining": "999",
      "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 30),
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    takeRequests() {
      const seen = taken;
      taken = [];
      return seen;
    },
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

function answer(route: ListRoute, query: URLSearchParams): Reply {
  const { form } = route;
  const items = route.items ?? Array.from({ length: route.count ?? 0 }, (_, i) => i);
  const withTotal = route.withTotal ?? form !== "cursor";
  const total = withTotal ? { total: items.length } : {};
  const cap = (asked: number) => Math.min(asked, route.maxItems ?? asked);
  const slice = (start: number, size: number) => items.slice(start, start + Math.max(0, size));
  if (route.unknownShape) return reply(200, { data: slice(0, 3) });
  if (route.body !== undefined) return reply(200, route.body);

  // Each form reads only its own parameters and ignores the others, as a real endpoint would.
  if (form === "page") {
    const page = integer(query.get("page"), 1);
    const pageSize = integer(query.get("pageSize"), DEFAULT_SIZE.page);
    if (page < 1 || pageSize < 1 || pageSize > 100) return invalid("page/pageSize");
    const granted = route.clampPageSize ? cap(pageSize) : pageSize;
    const echo = (route.echo ?? true) ? { page, pageSize: granted } : {};
    return reply(200, { items: slice((page - 1) * granted, cap(pageSize)), ...total, ...echo });
  }
  if (form === "offset") {
    const limit = integer(query.get("limit"), DEFAULT_SIZE.offset);
    const offset = integer(query.get("offset"), 0);
    if (limit < 1 || limit > 100 || offset < 0) return invalid("limit/offset");
    const echo = (route.echo ?? true) ? { limit: cap(limit), offset } : {};
    return reply(200, { items: slice(offset, cap(limit)), ...total, ...echo });
  }
  const cursor = query.get("cursor");
  if (cursor !== null && route.rejectCursorsWith !== undefined) {
    return reply(route.rejectCursorsWith, {
      error: {
        code: route.rejectionCode ?? "INVALID_CURSOR",
        message: "Cursor rejected",
        details: { cursor },
      },
      requestId: "req_cursor",
    });
  }
  const start = cursor === null ? 0 : decodeUpstreamCursor(cursor);
  const limit = integer(query.get("limit"), DEFAULT_SIZE.cursor);
  if (start === undefined) return invalid("cursor");
  if (limit < 1 || limit > 100) return invalid("limit");
  const served = slice(start, cap(limit));
  const end = start + served.length;
  const nextCursor = end < items.length ? upstreamCursorAt(end) : null;
  return reply(200, { items: served, nextCursor, ...total });
}

/** This upstream's own (opaque to the gateway) cursor for the page starting at `index`. */
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
  return errorReply(400, "INVALID_PARAMS", `bad ${what}`);
}

function errorReply(status: number, code: string, message: string): Reply {
  return reply(status, { error: { code, message }, requestId: "r" });
}

function reply(status: number, body: unknown): Reply {
  return { status, body };
}
