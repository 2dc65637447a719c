import { createHash } from "node:crypto";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { type ListeningGateway, listen } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { pairwise } from "./pairwise.ts";
import { SESSION_SECRET, sessionToken } from "./session-token.ts";

/** The settings the matrix crosses; each factor's first value is the reference run's. */
export const SETTINGS = {
  auth: ["passthrough", "session-header", "session-cookie"],
  store: ["none", "redis", "redis-cluster"],
  cache: ["off", "on"],
  documents: ["free", "apq", "trusted"],
  federation: ["off", "on"],
  fastPath: ["on", "off"],
  compiled: ["on", "off"],
} as const;

export const RUNS = pairwise(SETTINGS);
export type Run = (typeof RUNS)[number];
export const runName = (run: Run) =>
  Object.entries(run)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const COOKIE = "vg_session";
const ORIGIN = "https://app.example.test";

/** The corpus's documents: a trusted-only run's manifest holds exactly these. */
export const DOCUMENTS = {
  node: "query MatrixNode($id: ID!) { node(id: $id) { __typename id ... on Agent { name status } } }",
  agent:
    "query MatrixAgent($id: ID!) { agent(id: $id) { id name voiceConfigs { id isDefault label language } } }",
  conversations:
    "query MatrixConversations { conversations(first: 5, filter: { direction: INBOUND }) { totalCount nodes { id direction } } }",
  forwards:
    "query MatrixForwards($after: String) { agents(first: 2, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }",
  backwards:
    "query MatrixBackwards($before: String) { agents(last: 2, before: $before) { nodes { id } pageInfo { hasPreviousPage startCursor } } }",
  tooMany: "query MatrixTooMany { agents(first: 500) { nodes { id } } }",
  rename:
    "mutation MatrixRename($id: ID!, $name: String!) { updateAgent(id: $id, input: { name: $name }) { agent { id name } } }",
  entities:
    'query MatrixEntities($id: ID!) { _entities(representations: [{ __typename: "Agent", id: $id }]) { ... on Agent { id name } } }',
} as const;
export type DocumentName = keyof typeof DOCUMENTS;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface MatrixGateway {
  /** Sends a corpus document as this run's client would (key or token; text, APQ or ID). */
  send(name: DocumentName, variables?: Record<string, unknown>): Promise<Answer>;
  logout(): Promise<number>;
  close(): Promise<void>;
}

/** One run's gateway over `sandboxUrl`, created for the run and closed after it. */
export async function startMatrixGateway(run: Run, sandboxUrl: string): Promise<MatrixGateway> {
  const upstream: UpstreamClient = createUpstreamClient({ baseUrl: sandboxUrl, maxRetries: 0 });
  const session = run.auth !== "passthrough";
  const gateway = createGateway({
    upstream,
    logging: false,
    pollIntervalMs: 100,
    compileAfter: run.compiled === "on" ? 1 : 0,
    sharing: { cacheTtlS: run.cache === "on" ? 60 : 0 },
    ...(run.federation === "on" ? { schema: subgraphSchema } : {}),
    ...(session
      ? {
          session: {
            verify: createSessionVerifier({ secret: SESSION_SECRET }),
            keys: new Map([["org_acme", DEMO_KEYS.acme]]),
          },
          corsOrigins: [ORIGIN],
        }
      : {}),
    persistedDocuments:
      run.documents === "trusted"
        ? {
            manifest: Object.fromEntries(Object.values(DOCUMENTS).map((d) => [sha256(d), d])),
            trustedOnly: true,
          }
        : { trustedOnly: false },
  });
  const server: ListeningGateway = await listen(gateway, 0, "127.0.0.1", {
    fastPath: run.fastPath === "on",
    ...(run.auth === "session-cookie"
      ? { sessionCookie: { name: COOKIE, origins: [ORIGIN] } }
      : {}),
  });
  const token = await sessionToken();
  const headers = (): Record<string, string> => {
    if (run.auth === "passthrough") return { authorization: `Bearer ${DEMO_KEYS.acme}` };
    if (run.auth === "session-header") return { authorization: `Bearer ${token}` };
    return { cookie: `${COOKIE}=${token}`, origin: ORIGIN, "x-graphql-csrf": "1" };
  };
  const post = async (path: string, body: unknown): Promise<Answer> => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers() },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
  };
  const registered = new Set<string>();
  return {
    async send(name, variables = {}) {
      const query = DOCUMENTS[name];
      const hash = sha256(query);
      if (run.documents === "trusted") return post("/graphql", { documentId: hash, variables });
      if (run.documents === "free") return post("/graphql", { query, variables });
      const persistedQuery = { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } };
      if (!registered.has(hash)) {
        const first = await post("/graphql", { variables, ...persistedQuery });
        const code = (
          first.body.errors as Array<{ extensions?: { code?: string } }> | undefined
        )?.[0]?.extensions?.code;
        if (code !== "PERSISTED_QUERY_NOT_FOUND")
          throw new Error(`APQ: a first hash-only request was answered ${JSON.stringify(first)}`);
        registered.add(hash);
        return post("/graphql", { query, variables, ...persistedQuery });
      }
      return post("/graphql", { variables, ...persistedQuery });
    },
    async logout() {
      return (await post("/graphql/logout", {})).status;
    },
    async close() {
      await server.close();
      await upstream.close();
    },
  };
}

/** What legitimately varies between runs: request IDs, rate-limit figures, timings. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "requestId") out[key] = "<requestId>";
    // The read cache legitimately turns upstream calls into cache hits (docs/upstream-sharing.md).
    else if (["rateLimit", "durationMs", "tracing", "upstreamCalls", "cacheHits"].includes(key))
      continue;
    else out[key] = normalise(inner);
  }
  return out;
}

export const AGENT = SEED_IDS.acmeAgent;
