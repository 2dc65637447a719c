import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from "../../src/errors.ts";
import { createGateway, type GatewayOptions } from "../../src/gateway/create-gateway.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { listen } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import {
  ACME,
  ACME_READONLY,
  COMPILE_AFTER,
  FAST_PATH,
  type Harness,
  startHarness,
} from "./harness.ts";
import { rawExchange } from "./raw-http.ts";
import { TRANSPORTS } from "./transports.ts";

/**
 * Every code of the catalogue (src/errors.ts, printed in docs/errors.md) provoked by a request, at
 * whatever stage answers it, and held to what the catalogue says of it: the code, the status that
 * goes with it (the response's and `http.status` for an error that stops the operation, 200 and
 * none for a field error), and the request's ID in every error.
 */

interface ShownError {
  message: string;
  path?: unknown[];
  extensions?: { code?: string; http?: { status?: number }; requestId?: string };
}

interface Answer {
  /** The response's status; for a stream, the status its events arrived with. */
  status: number;
  /** X-Request-Id of the response; absent over graphql-ws, whose operations have no header. */
  requestId: string | null;
  errors: ShownError[];
  /** The error came in a later event of a stream already answered (SSE), not in its first. */
  midStream?: boolean;
}

let harness: Harness;
const extra: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  harness = await startHarness({
    sandbox: { callIntervalMs: 3_600_000 },
    gateway: { maxRequestBytes: 4096 },
    listen: { headersTimeoutMs: 1_000 },
  });
});
afterEach(() => harness.sandbox.clearFaults());
afterAll(async () => {
  for (const server of extra.splice(0).reverse()) await server.close();
  await harness.close();
});

/** Another gateway over the same upstream, for a setting the main one does not have. */
async function otherGateway(options: Partial<GatewayOptions>) {
  const gateway = createGateway({
    upstream: harness.upstream,
    logging: false,
    pollIntervalMs: 100,
    compileAfter: COMPILE_AFTER,
    ...options,
  });
  const server = await listen(gateway, 0, "127.0.0.1", { fastPath: FAST_PATH });
  extra.push(server);
  return server;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const requestId = response.headers.get("x-request-id");
  if (type.startsWith("text/event-stream")) {
    const events = [...text.matchAll(/^event: next\ndata: (.*)$/gm)].map(
      ([, data]) => JSON.parse(data as string) as { errors?: ShownError[] },
    );
    const errors = events.flatMap((event) => event.errors ?? []);
    const midStream = events.findIndex((event) => event.errors !== undefined) > 0;
    return { status: response.status, requestId, errors, midStream };
  }
  const body = JSON.parse(text) as { errors?: ShownError[] };
  return { status: response.status, requestId, errors: body.errors ?? [] };
}

function post(
  query: string,
  options: { authorization?: string | null; url?: string; headers?: Record<string, string> } = {},
) {
  const authorization = options.authorization === undefined ? ACME : options.authorization;
  return fetch(`${options.url ?? harness.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json",
      ...(authorization === null ? {} : { authorization }),
      ...options.headers,
    },
    body: JSON.stringify({ query }),
  }).then(answerOf);
}

/** What node:http answers raw bytes with, read as a response. */
async function raw(bytes: string): Promise<Answer> {
  const text = await rawExchange(harness.url, bytes);
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const status = Number(head.split(" ")[1]);
  const requestId = /^x-request-id: (.*)$/im.exec(head)?.[1] ?? null;
  return { status, requestId, errors: (JSON.parse(body) as { errors: ShownError[] }).errors };
}

/** The upstream answers its next request for `path` with `status` (the sandbox's fault queue). */
function upstreamAnswers(path: string, status: number, body: unknown = {}) {
  harness.sandbox.injectFault({ path, status, body });
}

const FIELD_NEXT_TO_DATA = "{ organization { name } __typename }";
const upstreamError = (code: string) => ({ error: { code, message: `${code} from upstream` } });
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A request that provokes each code of the catalogue. */
const PROVOKE: Record<ErrorCode, () => Promise<Answer>> = {
  BAD_USER_INPUT: () => post("{ agents(first: 1000) { totalCount } }"),
  CURSOR_MISMATCH: async () => {
    const page = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: "{ agents(first: 1) { pageInfo { endCursor } } }" }),
    }).then((response) => response.json());
    const cursor = page.data.agents.pageInfo.endCursor as string;
    return post(`{ conversations(first: 1, after: "${cursor}") { totalCount } __typename }`);
  },
  CURSOR_EXPIRED: async () => {
    const page = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: "{ campaigns(first: 1) { pageInfo { endCursor } } }" }),
    }).then((response) => response.json());
    const cursor = page.data.campaigns.pageInfo.endCursor as string;
    upstreamAnswers("/v1/campaigns", 410, upstreamError("GONE"));
    return post(`{ campaigns(first: 1, after: "${cursor}") { totalCount } __typename }`);
  },
  UNAUTHENTICATED: () => post("{ organization { name } }", { authorization: null }),
  FORBIDDEN: () =>
    post('mutation { updateOrganization(input: { city: "X" }) { organization { city } } }', {
      authorization: ACME_READONLY,
    }),
  NOT_FOUND: () => post('{ agent(id: "agt_no_such_agent") { name } __typename }'),
  CONFLICT: () =>
    post(`mutation { retryCampaign(id: "${SEED_IDS.acmeCampaignWithoutFailedRows}") { raw } }`),
  VALIDATION_FAILED: () =>
    post(
      'mutation { updateOrganization(input: { email: "not-an-email" }) { organization { email } } }',
    ),
  RATE_LIMITED: () => {
    upstreamAnswers("/v1/organization", 429, upstreamError("RATE_LIMITED"));
    return post(FIELD_NEXT_TO_DATA, { authorization: "Bearer sk_test_walk_rate_limited" });
  },
  COST_LIMIT_EXCEEDED: () =>
    post("{ agents(first: 100) { nodes { conversations(first: 100) { nodes { id } } } } }"),
  DEPTH_LIMIT_EXCEEDED: () =>
    post(
      `{ agent(id: "${SEED_IDS.acmeAgent}") ${"{ conversations(first: 1) { nodes { agent ".repeat(5)}{ id }${" } } }".repeat(5)} }`,
    ),
  ALIAS_LIMIT_EXCEEDED: () =>
    post(`{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(" ")} }`),
  SUBSCRIPTION_LIMIT_EXCEEDED: async () => {
    const server = await otherGateway({ bounds: { maxSubscriptionsTotal: 0 } });
    return post(
      `subscription { conversationStatus(id: "${SEED_IDS.acmeConversation}") { ended } }`,
      {
        url: server.url,
        headers: { accept: "text/event-stream" },
      },
    );
  },
  PERSISTED_QUERY_NOT_FOUND: () =>
    fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256("{ unknown }") } },
      }),
    }).then(answerOf),
  PERSISTED_QUERY_ONLY: async () => {
    const server = await otherGateway({ persistedDocuments: { manifest: {}, trustedOnly: true } });
    return post("{ organization { name } }", { url: server.url });
  },
  UPSTREAM_ERROR: () => {
    upstreamAnswers("/v1/organization", 500, upstreamError("INTERNAL"));
    return post(FIELD_NEXT_TO_DATA);
  },
  UPSTREAM_UNAVAILABLE: () => {
    harness.sandbox.injectFault({ path: "/v1/organization", destroy: true, times: 3 });
    return post(FIELD_NEXT_TO_DATA);
  },
  SHUTTING_DOWN: async () => {
    const gateway = createGateway({
      upstream: harness.upstream,
      logging: false,
      pollIntervalMs: 100,
    });
    const server = await listen(gateway, 0, "127.0.0.1");
    const stream = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: ACME,
      },
      body: JSON.stringify({ query: "query @live { organization { name } }" }),
    });
    setTimeout(() => void server.drain(2_000), 300);
    return answerOf(stream);
  },
  PAYLOAD_TOO_LARGE: () => post(`{ organization { name } } # ${"x".repeat(5000)}`),
  UNSUPPORTED_MEDIA_TYPE: () =>
    fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "text/plain", authorization: ACME },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    }).then(answerOf),
  METHOD_NOT_ALLOWED: () =>
    fetch(`${harness.url}/graphql`, { method: "PUT", headers: { authorization: ACME } }).then(
      answerOf,
    ),
  NOT_ACCEPTABLE: () =>
    fetch(`${harness.url}/graphql?query=${encodeURIComponent("{ __typename }")}`, {
      headers: { accept: "image/png", authorization: ACME },
    }).then(answerOf),
  HEADERS_TOO_LARGE: () =>
    fetch(
      `${harness.url}/graphql?query=${encodeURIComponent(`{ ${"__typename ".repeat(2000)}}`)}`,
      {
        headers: { authorization: ACME },
      },
    ).then(answerOf),
  REQUEST_TIMEOUT: () => raw("GET /graphql HTTP/1.1\r\nHost: gateway\r\n"),
  BAD_HTTP_REQUEST: () => raw("NOT HTTP AT ALL\r\n\r\n"),
  INTERNAL_SERVER_ERROR: () => {
    // An agent without its non-null fields fails inside graphql-js: nothing the gateway expected.
    upstreamAnswers(`/v1/agents/${SEED_IDS.acmeAgent}`, 200, { id: SEED_IDS.acmeAgent });
    return post(`{ agent(id: "${SEED_IDS.acmeAgent}") { primaryLanguage } __typename }`);
  },
};

describe("the error catalogue, walked through requests", () => {
  it("has a provoking request for every code of the catalogue", () => {
    expect(Object.keys(PROVOKE).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it.each(Object.keys(PROVOKE) as ErrorCode[])(
    "answers %s as the catalogue says: its status and the request's ID",
    async (code) => {
      const answer = await PROVOKE[code]();
      const error = answer.errors.find((each) => each.extensions?.code === code);
      expect(error, JSON.stringify(answer.errors)).toBeDefined();
      const shown = error as ShownError;
      // Every error names its request: the response header's ID where there is a header.
      for (const each of answer.errors) {
        expect(each.extensions?.requestId).toMatch(/^[\w.-]{1,128}$/);
        expect(each.extensions?.requestId).toBe(answer.requestId);
      }
      const scope = ERROR_CATALOGUE[code].scope;
      if (shown.path !== undefined) {
        expect(scope, "answered as a field error").not.toBe("operation");
        expect(shown.extensions?.http).toBeUndefined();
        expect(answer.status).toBe(200);
      } else {
        expect(scope, "answered for the whole operation").not.toBe("field");
        expect(shown.extensions?.http).toEqual({ status: ERROR_CODES[code] });
        // A later event of a stream arrives under the status the stream was answered with.
        expect(answer.status).toBe(answer.midStream ? 200 : ERROR_CODES[code]);
      }
    },
  );
});

describe("an operation's refusal to a client that accepts application/json first", () => {
  // GraphQL over HTTP: a request error is 200 in plain JSON, with no `http.status` to contradict
  // it; a refusal of the caller (401, 403) keeps its status (docs/errors.md).
  const PLAIN = { accept: "application/json" };
  const READ_ONLY_MUTATION =
    'mutation { updateOrganization(input: { city: "X" }) { organization { city } } }';
  const CASES: Array<[ErrorCode, () => Promise<Answer>, number]> = [
    [
      "BAD_USER_INPUT",
      () => post("{ agents(first: 1000) { totalCount } }", { headers: PLAIN }),
      200,
    ],
    [
      "COST_LIMIT_EXCEEDED",
      () =>
        post("{ agents(first: 100) { nodes { conversations(first: 100) { nodes { id } } } } }", {
          headers: PLAIN,
        }),
      200,
    ],
    [
      "ALIAS_LIMIT_EXCEEDED",
      () =>
        post(`{ ${Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(" ")} }`, {
          headers: PLAIN,
        }),
      200,
    ],
    [
      "PERSISTED_QUERY_ONLY",
      async () => {
        const server = await otherGateway({
          persistedDocuments: { manifest: {}, trustedOnly: true },
        });
        return post("{ organization { name } }", { url: server.url, headers: PLAIN });
      },
      200,
    ],
    [
      "UNAUTHENTICATED",
      () => post("{ organization { name } }", { authorization: null, headers: PLAIN }),
      401,
    ],
    [
      "FORBIDDEN",
      async () => {
        const server = await otherGateway({
          session: {
            verify: createSessionVerifier({ secret: SESSION_SECRET }),
            keys: new Map([["org_acme", DEMO_KEYS.acme]]),
          },
          persistedDocuments: { trustedOnly: false },
        });
        const token = await sessionToken({ claims: { readOnly: true } });
        return post(READ_ONLY_MUTATION, {
          url: server.url,
          authorization: `Bearer ${token}`,
          headers: PLAIN,
        });
      },
      403,
    ],
  ];

  it.each(CASES)("answers %s in plain JSON", async (code, provoke, status) => {
    const answer = await provoke();
    expect(answer.errors[0]?.extensions?.code).toBe(code);
    expect(answer.status).toBe(status);
    expect(answer.errors[0]?.extensions?.http).toEqual(status === 200 ? undefined : { status });
    expect(answer.errors[0]?.extensions?.requestId).toBe(answer.requestId);
  });
});

describe("request IDs on every transport", () => {
  it.each(TRANSPORTS.map((transport) => [transport.name, transport] as const))(
    "names one request ID in every error answered over %s",
    async (_name, transport) => {
      const client = transport.open(harness, ACME);
      try {
        const refused = await client.run("{ agents(first: 1000) { totalCount } }");
        const fieldError = await client.run(
          '{ agent(id: "agt_no_such_agent") { name } __typename }',
        );
        for (const seen of [refused, fieldError]) {
          expect(seen.errors?.length).toBeGreaterThan(0);
          for (const error of seen.errors ?? []) {
            // Over HTTP the harness has already held it to X-Request-Id, and replaced it.
            if (transport.name !== "HTTP") {
              expect(error.extensions?.requestId).toMatch(/^[\w.-]{1,128}$/);
            }
          }
        }
        expect(refused.errors?.[0]?.extensions).toMatchObject({
          code: "BAD_USER_INPUT",
          argument: "first",
          http: { status: 400 },
        });
        // Two operations, two IDs, over one connection too.
        if (transport.name !== "HTTP")
          expect(refused.errors?.[0]?.extensions?.requestId).not.toBe(
            fieldError.errors?.[0]?.extensions?.requestId,
          );
      } finally {
        await client.close();
      }
    },
  );
});
