import type { Harness } from "./harness.ts";

// The gateway's side of test/support/list-upstream.ts: items for its `/v1` routes, and the
// connections read off GraphQL answers.

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

/** Every page of the connection, paging forward with `first` to the last (20 pages at most). */
export async function pagesForward(
  harness: Harness,
  query: string,
  field: string,
  first: number,
): Promise<ConnectionResult[]> {
  const pages: ConnectionResult[] = [];
  let after: string | null = null;
  for (let hasNextPage = true; hasNextPage && pages.length < 20; ) {
    const page: ConnectionResult = await fetchConnection(harness, query, field, { first, after });
    pages.push(page);
    ({ hasNextPage } = page.pageInfo);
    after = page.pageInfo.endCursor;
  }
  return pages;
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
