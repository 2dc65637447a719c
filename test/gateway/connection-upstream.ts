import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Harness } from "./harness.ts";

/**
 * A purpose-built `/v1` upstream for what the sandbox cannot show: a list answering in another
 * page form than assumed, a tighter bound served as a short page, no `total`, and cursor
 * rejections with any status. Records "GET /v1/agents?page=1&pageSize=20" like the harness.
 */
export interface ListRoute {
  form: "page" | "cursor" | "offset";
  items: Array<{ id: string } & Record<string, unknown>>;
  /** Whether answers carry `total`; default true. */
  withTotal?: boolean;
  /** A tighter endpoint bound: never more items than this per answer, whatever was asked. */
  maxItems?: number;
  /** Every request carrying a `cursor` is answered with this status (seed error body). */
  rejectCursorsWith?: number;
  /** Whether position-form answers echo their paging parameters; default true. */
  echo?: boolean;
}

export interface ListUpstream {
  /** Base URL without /v1. */
  url: string;
  takeRequests(): string[];
  close(): Promise<void>;
}

const DEFAULT_SIZE = { page: 20, cursor: 25, offset: 50 } as const;

export async function startListUpstream(routes: Record<string, ListRoute>): Promise<ListUpstream> {
  let requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    requests.push(`${req.method} ${req.url}`);
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
    takeRequests() {
      const seen = requests;
      requests = [];
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
  const { form, items } = route;
  const total = (route.withTotal ?? true) ? { total: items.length } : {};
  const cap = (asked: number) => Math.min(asked, route.maxItems ?? asked);
  // Each form reads only its own parameters and ignores the others, as a real endpoint would.
  if (form === "page") {
    const page = integer(query.get("page"), 1);
    const pageSize = integer(query.get("pageSize"), DEFAULT_SIZE.page);
    const start = (page - 1) * pageSize;
    const echo = (route.echo ?? true) ? { page, pageSize } : {};
    return {
      status: 200,
      body: { items: items.slice(start, start + cap(pageSize)), ...total, ...echo },
    };
  }
  if (form === "offset") {
    const limit = cap(integer(query.get("limit"), DEFAULT_SIZE.offset));
    const offset = integer(query.get("offset"), 0);
    const echo = (route.echo ?? true) ? { limit, offset } : {};
    return {
      status: 200,
      body: { items: items.slice(offset, offset + limit), ...total, ...echo },
    };
  }
  const cursor = query.get("cursor");
  if (cursor !== null && route.rejectCursorsWith !== undefined) {
    return errorReply(route.rejectCursorsWith, "CURSOR_REJECTED", "This cursor is not accepted");
  }
  const start = cursor === null ? 0 : Number(Buffer.from(cursor, "base64url").toString().slice(3));
  const limit = cap(integer(query.get("limit"), DEFAULT_SIZE.cursor));
  const served = items.slice(start, start + limit);
  const end = start + served.length;
  const nextCursor = end < items.length ? fakeUpstreamCursor(end) : null;
  return { status: 200, body: { items: served, nextCursor, ...total } };
}

/** This upstream's own cursor for the page that starts at `index`. */
export function fakeUpstreamCursor(index: number): string {
  return Buffer.from(`at:${index}`).toString("base64url");
}

function integer(value: string | null, fallback: number): number {
  return value === null ? fallback : Number(value);
}

function errorReply(status: number, code: string, message: string): Reply {
  return { status, body: { error: { code, message }, requestId: `req_${status}` } };
}

/** `count` agents with every field the Agent type needs, ids agt_fake_000.. in list order. */
export function fakeAgents(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `agt_fake_${String(index).padStart(3, "0")}`,
    name: `Agent ${index}`,
    primaryLanguage: "en-US",
    status: "ACTIVE",
    systemPrompt: "",
    greeting: "",
    model: "gpt",
    metadata: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    supportedLanguages: ["en-US"],
    voiceConfigs: [],
  }));
}

export function fakeCampaigns(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `cmp_fake_${String(index).padStart(3, "0")}`,
    name: `Campaign ${index}`,
    status: "COMPLETED",
  }));
}

/** `count` conversations, newest first, ids cnv_fake_0.. in list order (`prefix` for new ones). */
export function fakeConversations(count: number, prefix = "cnv_fake_") {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}`,
    agentId: "agt_fake_000",
    status: "SUCCESS",
    direction: "INBOUND",
    channel: "VOICE",
    createdAt: "2026-01-01T00:00:00.000Z",
  }));
}

// --- reading connections off GraphQL answers ---------------------------------------------------

export const CONNECTION_SELECTION =
  "totalCount edges { cursor node { id } } " +
  "pageInfo { hasNextPage hasPreviousPage startCursor endCursor }";

export interface ConnectionResult {
  totalCount: number | null;
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

export type ConnectionArgs = {
  first?: number;
  after?: string | null;
  last?: number;
  before?: string | null;
};

/** A query of one root connection field with Relay's variables (and a filter when typed). */
export function connectionQuery(field: string, filterType?: string, forwardOnly = false): string {
  const variables = forwardOnly
    ? ["$first: Int", "$after: String"]
    : ["$first: Int", "$after: String", "$last: Int", "$before: String"];
  const args = forwardOnly
    ? ["first: $first", "after: $after"]
    : ["first: $first", "after: $after", "last: $last", "before: $before"];
  if (filterType) {
    variables.push(`$filter: ${filterType}`);
    args.push("filter: $filter");
  }
  return `query (${variables.join(", ")}) { ${field}(${args.join(", ")}) { ${CONNECTION_SELECTION} } }`;
}

/** The connection under `field`, failing the test with the errors when there are any. */
export async function fetchConnection(
  harness: Harness,
  query: string,
  field: string,
  variables: Record<string, unknown> = {},
): Promise<ConnectionResult> {
  const { body } = await harness.graphql<Record<string, ConnectionResult>>(query, variables);
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  const connection = body.data?.[field];
  if (!connection) throw new Error(`no ${field} in ${JSON.stringify(body)}`);
  // Edges and page info must agree however the client reads them.
  const { edges, pageInfo } = connection;
  if (pageInfo.startCursor !== (edges[0]?.cursor ?? null)) throw new Error("startCursor drift");
  if (pageInfo.endCursor !== (edges.at(-1)?.cursor ?? null)) throw new Error("endCursor drift");
  return connection;
}

/** What a client reads off a connection, in one comparable object. */
export function summary(connection: ConnectionResult) {
  return {
    ids: connection.edges.map((edge) => edge.node.id),
    hasNextPage: connection.pageInfo.hasNextPage,
    hasPreviousPage: connection.pageInfo.hasPreviousPage,
    totalCount: connection.totalCount,
  };
}

/** The `extensions.code` of each error of an answer. */
export function errorCodes(body: { errors?: ReadonlyArray<{ extensions?: unknown }> }): unknown[] {
  return (body.errors ?? []).map(
    (error) => (error.extensions as { code?: unknown } | undefined)?.code,
  );
}
