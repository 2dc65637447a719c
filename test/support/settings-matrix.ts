import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { WebSocket } from "ws";
import { createFleetRedis, type FleetRedis } from "../../src/fleet/redis.ts";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { createMcpEndpoint, type McpEndpoint } from "../../src/gateway/mcp/endpoint.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { type ListeningGateway, listen } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { KeyMemory } from "../../src/upstream/key-memory.ts";
import type { FleetStore } from "./fleet-store.ts";
import { type Exclusion, pairwise } from "./pairwise.ts";
import { SESSION_SECRET, sessionToken } from "./session-token.ts";
import { WAIT_MS } from "./wait.ts";

/** The settings the matrix crosses; each factor's first value is the reference run's. */
export const SETTINGS = {
  auth: ["passthrough", "session-header", "session-cookie"],
  store: ["none", "redis", "redis-cluster"],
  cache: ["off", "on"],
  documents: ["free", "apq", "trusted"],
  federation: ["off", "on"],
  fastPath: ["on", "off"],
  compiled: ["on", "off"],
  mcp: ["on", "off"],
  mcpMutations: ["off", "on"],
  mcpSchemaTools: ["off", "on"],
} as const;

/** Settings that never meet: start-up refuses the first, the others mean nothing with MCP off. */
export const EXCLUSIONS: readonly Exclusion[] = [
  { federation: "on", documents: "trusted" },
  { mcp: "off", mcpMutations: "on" },
  { mcp: "off", mcpSchemaTools: "on" },
];

export const RUNS = pairwise(SETTINGS, EXCLUSIONS);
export type Run = (typeof RUNS)[number];
export const runName = (run: Run) =>
  Object.entries(run)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const COOKIE = "vg_session";
const ORIGIN = "https://app.example.test";
const CURSOR_SECRET = "the-settings-matrix-cursor-secret-of-32-chars";

/** The trusted-documents manifest `npm run codegen` writes from test/operations. */
export const MANIFEST_FILE = "test/generated/persisted-documents.json";
const MANIFEST = JSON.parse(readFileSync(MANIFEST_FILE, "utf8")) as Record<string, string>;

/** A manifest document by its operation's name: its ID and its text. */
function fromManifest(operation: string) {
  const found = Object.entries(MANIFEST).find(([, text]) =>
    new RegExp(`^(query|mutation|subscription) ${operation}\\b`).test(text),
  );
  if (!found) throw new Error(`${MANIFEST_FILE} has no ${operation}: run npm run codegen`);
  return { id: found[0], text: found[1] };
}

/** The corpus's documents (test/operations/matrix.graphql), as the manifest holds them. */
export const DOCUMENTS = {
  node: fromManifest("MatrixNode"),
  agent: fromManifest("MatrixAgent"),
  conversations: fromManifest("MatrixConversations"),
  forwards: fromManifest("MatrixForwards"),
  backwards: fromManifest("MatrixBackwards"),
  tooMany: fromManifest("MatrixTooMany"),
  rename: fromManifest("MatrixRename"),
  live: fromManifest("MatrixLive"),
  status: fromManifest("MatrixStatus"),
  // The subgraph's own field: outside the public schema codegen reads, and never trusted-only.
  entities: {
    id: "",
    text: 'query MatrixEntities($id: ID!) { _entities(representations: [{ __typename: "Agent", id: $id }]) { ... on Agent { id name } } }',
  },
} as const;
export type DocumentName = keyof typeof DOCUMENTS;

/** A client's own query, in no manifest: what automatic persisted queries register. */
export const APQ_QUERY = "query MatrixApq { organization { name } }";

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One live operation as a client follows it: every result so far. */
export interface Following {
  results: unknown[];
  /** Waits (bounded) until at least `count` results arrived, or the stream ended. */
  count(count: number): Promise<unknown[]>;
  stop(): void;
}

export interface MatrixGateway {
  url: string;
  /** The session token this run's client sends (passthrough: unused). */
  token: string;
  /** The credential headers of this run's client (key, token or cookie). */
  headers(): Record<string, string>;
  /** Sends a corpus document as this run's client would (key or token; text, APQ or ID). */
  send(name: DocumentName, variables?: Record<string, unknown>): Promise<Answer>;
  /** POSTs a body of the caller's to /graphql with this run's credentials. */
  post(body: unknown): Promise<Answer>;
  /**
   * Follows a corpus document with graphql-sse's client (distinct connections), or graphql-ws's
   * (the credential in the connection params, or the cookie on the upgrade as a page sends it).
   */
  follow(
    name: DocumentName,
    variables: Record<string, unknown>,
    over?: "sse" | "graphql-ws",
  ): Following;
  /** An MCP SDK client on /mcp with this run's credential (a session rides in the header). */
  mcp(): Promise<Client>;
  logout(): Promise<number>;
  close(): Promise<void>;
}

/**
 * One run's gateway over `sandboxUrl`, created for the run and closed after it; with a store,
 * on it under `prefix` of its own, so no run sees another's registrations or logouts.
 */
export async function startMatrixGateway(
  run: Run,
  sandboxUrl: string,
  fleet?: { store: FleetStore; prefix: string },
  /** The client's session token; default a fresh one. Another instance's client may share it. */
  session?: { token: string },
): Promise<MatrixGateway> {
  const keyMemory = new KeyMemory();
  const upstream: UpstreamClient = createUpstreamClient({
    baseUrl: sandboxUrl,
    maxRetries: 0,
    keyMemory,
  });
  const redis: FleetRedis | undefined =
    fleet && createFleetRedis({ ...fleet.store.connection, prefix: fleet.prefix });
  if (redis) await until(() => redis.available(), "the matrix's Redis connection");
  const sessionMode = run.auth !== "passthrough";
  const trustedOnly = run.documents === "trusted";
  const gateway = createGateway({
    upstream,
    logging: false,
    pollIntervalMs: 100,
    compileAfter: run.compiled === "on" ? 1 : 0,
    sharing: { cacheTtlS: run.cache === "on" ? 60 : 0 },
    ...(redis ? { fleet: { redis, keyMemory }, cursorSecret: CURSOR_SECRET } : {}),
    ...(run.federation === "on" ? { schema: subgraphSchema } : {}),
    ...(sessionMode
      ? {
          session: {
            verify: createSessionVerifier({ secret: SESSION_SECRET }),
            keys: new Map([["org_acme", DEMO_KEYS.acme]]),
          },
          corsOrigins: [ORIGIN],
        }
      : {}),
    persistedDocuments: trustedOnly ? { manifest: MANIFEST, trustedOnly } : { trustedOnly },
  });
  // As main.ts serves MCP: tools from the trusted-documents manifest.
  const endpoint: McpEndpoint | undefined =
    run.mcp === "on"
      ? createMcpEndpoint(gateway, {
          schema: gateway.getEnveloped().schema,
          source: { manifestFile: MANIFEST_FILE },
          mutations: run.mcpMutations === "on",
          schemaTools: run.mcpSchemaTools === "on",
          trustedOnly,
          ...(sessionMode ? { session: {} } : {}),
          corsOrigins: sessionMode ? [ORIGIN] : [],
          maxRequestBytes: 1024 * 1024,
          logger: { warn: () => undefined },
          version: "matrix",
        })
      : undefined;
  const server: ListeningGateway = await listen(gateway, 0, "127.0.0.1", {
    fastPath: run.fastPath === "on",
    ...(run.auth === "session-cookie"
      ? { sessionCookie: { name: COOKIE, origins: [ORIGIN] } }
      : {}),
    ...(endpoint ? { mcp: endpoint } : {}),
  });
  const token = session?.token ?? (await sessionToken());
  const authorization = `Bearer ${sessionMode ? token : DEMO_KEYS.acme}`;
  const headers = (): Record<string, string> =>
    run.auth === "session-cookie"
      ? { cookie: `${COOKIE}=${token}`, origin: ORIGIN, "x-graphql-csrf": "1" }
      : { authorization };
  const postTo = async (path: string, body: unknown): Promise<Answer> => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers() },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
  };
  const post = (body: unknown) => postTo("/graphql", body);
  const registered = new Set<string>();
  const clients: Client[] = [];
  const followings: Following[] = [];
  return {
    url: server.url,
    token,
    headers,
    post,
    async send(name, variables = {}) {
      const { id, text: query } = DOCUMENTS[name];
      if (trustedOnly) return post({ documentId: id, variables });
      if (run.documents === "free") return post({ query, variables });
      const hash = sha256(query);
      const persistedQuery = { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } };
      if (!registered.has(hash)) {
        const first = await post({ variables, ...persistedQuery });
        const code = (
          first.body.errors as Array<{ extensions?: { code?: string } }> | undefined
        )?.[0]?.extensions?.code;
        if (code !== "PERSISTED_QUERY_NOT_FOUND")
          throw new Error(`APQ: a first hash-only request was answered ${JSON.stringify(first)}`);
        registered.add(hash);
        return post({ query, variables, ...persistedQuery });
      }
      return post({ variables, ...persistedQuery });
    },
    follow(name, variables, over = "sse") {
      // A trusted document sent as its manifest text runs as itself, in every documents mode.
      const request = { query: DOCUMENTS[name].text, variables };
      let client: { dispose(): unknown };
      let iterator: AsyncIterableIterator<unknown>;
      if (over === "sse") {
        const sse = createSseClient({ url: `${server.url}/graphql`, headers, retryAttempts: 0 });
        client = sse;
        iterator = sse.iterate(request);
      } else {
        const upgrade = run.auth === "session-cookie" ? headers() : {};
        class PageSocket extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers: upgrade });
          }
        }
        const ws = createWsClient({
          url: `${server.url.replace(/^http/, "ws")}/graphql`,
          webSocketImpl: PageSocket,
          connectionParams: run.auth === "session-cookie" ? {} : { Authorization: authorization },
          retryAttempts: 0,
          lazy: true,
          onNonLazyError: () => undefined,
        });
        client = ws;
        iterator = ws.iterate(request);
      }
      const results: unknown[] = [];
      let ended = false;
      void (async () => {
        for await (const result of iterator) results.push(result);
      })()
        .catch((error: unknown) => results.push({ clientError: String(error) }))
        .finally(() => {
          ended = true;
        });
      const following: Following = {
        results,
        async count(count) {
          const so = () => `${count} results of ${name} (so far ${JSON.stringify(results)})`;
          // A stream that ended (e.g. refused) has given all it will.
          await until(() => ended || results.length >= count, so);
          return results;
        },
        stop() {
          void iterator.return?.();
          client.dispose();
        },
      };
      followings.push(following);
      return following;
    },
    async mcp() {
      const client = new Client({ name: "settings-matrix", version: "1" });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization } },
        }),
      );
      return client;
    },
    async logout() {
      return (await postTo("/graphql/logout", {})).status;
    },
    async close() {
      for (const following of followings) following.stop();
      for (const client of clients) await client.close();
      await server.close();
      await upstream.close();
      await redis?.close();
    },
  };
}

/** Waits (bounded by WAIT_MS) until `predicate` holds. */
async function until(predicate: () => boolean, what: string | (() => string)) {
  const deadline = Date.now() + WAIT_MS;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`${typeof what === "string" ? what : what()}: not within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
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
export const LIVE_CONVERSATION = SEED_IDS.acmeLiveConversation;
/** The seeded agent's name, which the mutation items restore. */
export const ORIGINAL_NAME = "Reception";
