import { createHash } from "node:crypto";
import type { Client } from "graphql-ws";
import { createFleetRedis, type FleetRedis } from "../../src/fleet/redis.ts";
import {
  createGateway,
  type Gateway,
  type GatewayOptions,
} from "../../src/gateway/create-gateway.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import {
  type ListeningGateway,
  type ListenOptions,
  listen,
} from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { KeyMemory } from "../../src/upstream/key-memory.ts";
import { type FleetStore, startFleetStore } from "../support/fleet-store.ts";
import { SESSION_SECRET } from "../support/session-token.ts";

export const ACME = `Bearer ${DEMO_KEYS.acme}`;
export const GLOBEX = `Bearer ${DEMO_KEYS.globex}`;
export const CURSOR_SECRET = "a-fleet-wide-cursor-secret-of-32-characters!";
export const PREFIX = "vgtest:";
export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Session mode over a cookie, as a page of `SESSION_APP` uses it: the gateway's and listen's options. */
export const SESSION_COOKIE = "vg_session";
export const SESSION_APP = "https://app.example.test";
export const SESSION_GATEWAY: Partial<GatewayOptions> = {
  session: {
    verify: createSessionVerifier({ secret: SESSION_SECRET }),
    keys: new Map([["org_acme", DEMO_KEYS.acme]]),
  },
  corsOrigins: [SESSION_APP],
};
export const SESSION_LISTEN: ListenOptions = {
  sessionCookie: { name: SESSION_COOKIE, origins: [SESSION_APP] },
};

/**
 * A live query followed over graphql-ws on `client`: `delivered` settles at its first result,
 * `closed` with the socket's close code (or "complete").
 */
export function followOverSocket(client: Client, query: string) {
  let first: () => void = () => undefined;
  const delivered = new Promise<void>((resolve) => {
    first = resolve;
  });
  const closed = new Promise<unknown>((resolve) => {
    client.subscribe(
      { query },
      {
        next: () => first(),
        error: (error) => resolve((error as { code?: number }).code),
        complete: () => resolve("complete"),
      },
    );
  });
  return { delivered, closed, close: () => client.dispose() };
}

/** An answer as a client reads it. */
export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

/** One instance of the fleet: a real gateway listening on loopback, with its own Redis connection. */
export interface Instance {
  url: string;
  gateway: Gateway;
  upstream: UpstreamClient;
  redis: FleetRedis;
  server: ListeningGateway;
  graphql(
    query: string,
    options?: { authorization?: string; extensions?: unknown; variables?: unknown },
  ): Promise<{ status: number; body: GraphQLBody }>;
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export interface Fleet {
  /** The store (FLEET_STORE: one server or a cluster). */
  redis: FleetStore;
  sandbox: Sandbox;
  instances: Instance[];
  /** The sandbox's requests (method and URL) since the last call, and clears them. */
  takeUpstreamRequests(): string[];
  close(): Promise<void>;
}

/** Several gateways over one sandbox and one real store, as an operator runs them. */
export async function startFleet(
  count: number,
  options: {
    sandbox?: SandboxOptions;
    gateway?: Partial<GatewayOptions>;
    /** How each instance listens, e.g. its session cookie. */
    listen?: ListenOptions;
    redis?: FleetStore;
  } = {},
): Promise<Fleet> {
  const redis = options.redis ?? (await startFleetStore());
  const sandbox = await startSandbox({ port: 0, callIntervalMs: 600_000, ...options.sandbox });
  const instances: Instance[] = [];
  for (let i = 0; i < count; i++)
    instances.push(await startInstance(redis, sandbox.url, options.gateway, options.listen));
  return {
    redis,
    sandbox,
    instances,
    takeUpstreamRequests() {
      const seen = sandbox.requests.map((request) => `${request.method} ${request.url}`);
      sandbox.clearRequests();
      return seen;
    },
    async close() {
      for (const instance of instances) await instance.close();
      await sandbox.close();
      if (!options.redis) await redis.close();
    },
  };
}

/** One instance on `store`, or on one server's URL (e.g. through a TCP proxy). */
export async function startInstance(
  store: FleetStore | string,
  upstreamUrl: string,
  options: Partial<GatewayOptions> = {},
  listenOptions: ListenOptions = {},
): Promise<Instance> {
  const keyMemory = new KeyMemory();
  const upstream = createUpstreamClient({ baseUrl: upstreamUrl, keyMemory, maxRetries: 0 });
  const connection = typeof store === "string" ? { url: store } : store.connection;
  const redis = createFleetRedis({ ...connection, prefix: PREFIX });
  await waitUntil(() => redis.available(), 5_000, "Redis connection");
  const gateway = createGateway({
    upstream,
    fleet: { redis, keyMemory },
    cursorSecret: CURSOR_SECRET,
    pollIntervalMs: 200,
    logging: false,
    ...options,
  });
  const server = await listen(gateway, 0, "127.0.0.1", listenOptions);
  let closed = false;
  return {
    url: server.url,
    gateway,
    upstream,
    redis,
    server,
    async graphql(query, requestOptions = {}) {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: requestOptions.authorization ?? ACME,
        },
        // An empty query is left out: Apollo's automatic persisted queries send the hash alone.
        body: JSON.stringify({
          ...(query === "" ? {} : { query }),
          ...(requestOptions.variables ? { variables: requestOptions.variables } : {}),
          ...(requestOptions.extensions ? { extensions: requestOptions.extensions } : {}),
        }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLBody };
    },
    metrics: async () => (await fetch(`${server.url}/metrics`)).text(),
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await upstream.close();
      await redis.close();
    },
  };
}

/** Waits (bounded) until `predicate` holds. */
export async function waitUntil(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
) {
  const until = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A metric's value in a Prometheus text, e.g. metric(text, 'voicegraph_fleet_pollers{role="owned"}'). */
export function metric(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
