import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { type ExecutionResult, print } from "graphql";
import {
  createGateway,
  type Gateway,
  type GatewayOptions,
} from "../../src/gateway/create-gateway.ts";
import {
  type ListeningGateway,
  type ListenOptions,
  listen,
} from "../../src/gateway/transport/server.ts";
import { DIALECTS, type Dialect, isDialectName } from "../../src/sandbox/dialects.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import {
  createUpstreamClient,
  type UpstreamClient,
  type UpstreamClientOptions,
} from "../../src/upstream/client.ts";

/**
 * The sandbox dialect this run proves the gateway against (vitest.config.ts sets
 * SANDBOX_DIALECT per project). Tests derive dialect-specific expectations from its choices.
 */
export const DIALECT: Dialect = (() => {
  const name = process.env.SANDBOX_DIALECT ?? "standard";
  if (!isDialectName(name)) throw new Error(`SANDBOX_DIALECT: unknown dialect ${name}`);
  return DIALECTS[name];
})();

/** Whether this run's gateways take the fast path (vitest.config.ts: off in gateway:yoga-only). */
export const FAST_PATH = process.env.GATEWAY_FAST_PATH !== "off";

/**
 * The run at which this run's gateways compile a query (vitest.config.ts: 1, every query compiled
 * from its first run, in the fast-path projects; 0, graphql-js alone, in gateway:yoga-only).
 */
export const COMPILE_AFTER = Number(process.env.COMPILED_EXECUTION_AFTER ?? "1");

/** Acme's seeded organization fields, as the sandbox (both dialects) answers them. */
export const ACME_ORGANIZATION = {
  name: "Acme Health",
  description: "Family clinics with same-day appointments.",
  url: "https://acme-health.example",
  industry: "Healthcare",
  country: "US",
  city: "Boston",
  telephone: "+16175550100",
  email: "hello@acme-health.example",
  timezone: "America/New_York",
};

export const ACME = `Bearer ${DEMO_KEYS.acme}`;
export const GLOBEX = `Bearer ${DEMO_KEYS.globex}`;
export const ACME_READONLY = `Bearer ${DEMO_KEYS.acmeReadonly}`;

export interface GraphQLResponse<TData> {
  status: number;
  headers: Headers;
  body: ExecutionResult<TData> & { extensions?: Record<string, unknown> };
}

export interface Harness {
  /** The gateway's base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  sandbox: Sandbox;
  gateway: Gateway;
  upstream: UpstreamClient;
  /** POSTs an operation to /graphql with the given Authorization (Acme's by default; null: none). */
  graphql<TData = Record<string, unknown>, TVariables = Record<string, unknown>>(
    document: TypedDocumentNode<TData, TVariables> | string,
    variables?: TVariables,
    options?: { authorization?: string | null; headers?: Record<string, string> },
  ): Promise<GraphQLResponse<TData>>;
  /** "METHOD /path?query" of each upstream request since the last call (and clears the log). */
  takeUpstreamRequests(): string[];
  close(): Promise<void>;
}

/** A real sandbox and a real gateway, each listening on a free loopback port. */
export async function startHarness(
  options: {
    sandbox?: SandboxOptions;
    gateway?: Partial<Omit<GatewayOptions, "upstream">>;
    upstream?: Partial<
      Pick<UpstreamClientOptions, "timeoutMs" | "maxRetries" | "baseUrl" | "keyMemory">
    >;
    /** listen()'s options: e.g. `fastPath` (default: this project's GATEWAY_FAST_PATH). */
    listen?: ListenOptions;
  } = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, dialect: DIALECT.name, ...options.sandbox });
  const upstream = createUpstreamClient({
    baseUrl: options.upstream?.baseUrl ?? sandbox.url,
    timeoutMs: options.upstream?.timeoutMs ?? 5_000,
    maxRetries: options.upstream?.maxRetries ?? 2,
    retryDelayMs: 10,
    ...(options.upstream?.keyMemory ? { keyMemory: options.upstream.keyMemory } : {}),
    // What the gateway cannot read from this dialect's answers, it is told (README); another
    // upstream named by the test keeps the defaults.
    reading:
      options.upstream?.baseUrl === undefined
        ? { searchParam: DIALECT.searchParam, durationUnit: DIALECT.durationUnit }
        : undefined,
  });
  const gateway = createGateway({
    upstream,
    logging: false,
    pollIntervalMs: 100,
    compileAfter: COMPILE_AFTER,
    ...options.gateway,
  });
  const server: ListeningGateway = await listen(gateway, 0, "127.0.0.1", {
    fastPath: FAST_PATH,
    ...options.listen,
  });
  return {
    url: server.url,
    sandbox,
    gateway,
    upstream,
    async graphql(document, variables, requestOptions = {}) {
      const authorization =
        requestOptions.authorization === undefined ? ACME : requestOptions.authorization;
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json, application/json",
          ...(authorization === null ? {} : { authorization }),
          ...requestOptions.headers,
        },
        body: JSON.stringify({
          query: typeof document === "string" ? document : print(document),
          variables: variables ?? {},
        }),
      });
      const body = (await response.json()) as GraphQLResponse<never>["body"];
      takeRequestIds(body, response.headers);
      return { status: response.status, headers: response.headers, body };
    },
    takeUpstreamRequests() {
      const seen = sandbox.requests.map((request) => `${request.method} ${request.url}`);
      sandbox.clearRequests();
      return seen;
    },
    async close() {
      await server.close();
      await upstream.close();
      await sandbox.close();
    },
  };
}

/**
 * What `takeRequestIds` leaves in each error's `extensions.requestId`, once it has checked the ID
 * against the response's `X-Request-Id`: tests state it in their expected errors
 * (`requestId: GATEWAY_REQUEST_ID`), so an error that lost its ID, or gained one, fails them.
 */
export const GATEWAY_REQUEST_ID = "<the response's X-Request-Id>";

/**
 * Every error of a gateway answer carries the request ID of its `X-Request-Id` header: checked
 * for every operation a test sends, then replaced by GATEWAY_REQUEST_ID, the same in every response, so
 * tests can state each whole error exactly. Tests about the ID itself read the header.
 */
export function takeRequestIds(
  body: { errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> },
  headers: Headers,
): void {
  const requestId = headers.get("x-request-id");
  for (const error of body.errors ?? []) {
    const extensions = error.extensions ?? {};
    if (requestId === null || extensions.requestId !== requestId) {
      throw new Error(
        `error without the request ID ${requestId}: ${JSON.stringify(error).slice(0, 300)}`,
      );
    }
    extensions.requestId = GATEWAY_REQUEST_ID;
  }
}

/** The CORS preflight a page at `origin` sends before a POST with an API key and a JSON body. */
export function corsPreflight(harness: Harness, origin: string): Promise<Response> {
  return fetch(`${harness.url}/graphql`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  });
}
