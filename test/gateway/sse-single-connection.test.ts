import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "graphql-sse";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import type { GatewayBounds } from "../../src/gateway/settings/bounds.ts";
import { STREAM_NOT_HERE } from "../../src/gateway/sse/use-sse-single-connection.ts";
import type { ListenOptions } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME, GLOBEX, startHarness } from "./harness.ts";
import { readUntil, singleConnection, until } from "./sse-single-connection-support.ts";
import { LIVE, SUBSCRIPTION } from "./subscriptions-support.ts";

const closing = closedAfterEachTest();
const ORGANIZATION = "{ organization { id name telephone } }";

async function gatewayWith(bounds: GatewayBounds = {}, listen: ListenOptions = {}) {
  const harness = closing(
    await startHarness({ sandbox: { callDurationMs: 60_000 }, gateway: { bounds }, listen }),
  );
  return { harness, sse: singleConnection(harness.url) };
}

/** A stream reserved with `authorization`: its token. */
async function reserved(sse: ReturnType<typeof singleConnection>, authorization: string) {
  const response = await sse.put(authorization);
  expect(response.status).toBe(201);
  return response.text();
}

/** The one answer to a token this instance does not hold for this key: only its request ID differs. */
async function expectNotHere(response: Promise<Response>) {
  const answer = await response;
  const requestId = answer.headers.get("x-request-id");
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect({ status: answer.status, body: await answer.json() }).toEqual({
    status: 404,
    body: {
      errors: [
        {
          message: STREAM_NOT_HERE,
          extensions: { code: "NOT_FOUND", http: { status: 404 }, requestId },
        },
      ],
    },
  });
}

describe("single-connection SSE: a reservation belongs to the key that made it", () => {
  it("reserves only for a key that passes the local checks", async () => {
    const { sse } = await gatewayWith();
    for (const authorization of [undefined, "Bearer ab\u00e9cd", `Bearer ${"a".repeat(5000)}`]) {
      const response = await sse.put(authorization);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        errors: [{ extensions: { code: "UNAUTHENTICATED" } }],
      });
    }
  });

  it("makes its own tokens of 256 random bits, never the client's", async () => {
    const { sse } = await gatewayWith({ sseReservationsPerKey: 50 });
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const response = await sse.put(ACME, "chosen-by-the-client");
      expect(response.status).toBe(201);
      const token = await response.text();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      tokens.add(token);
    }
    expect(tokens.size).toBe(20);
    expect(tokens.has("chosen-by-the-client")).toBe(false);
  });

  it("answers a wrong or missing key exactly as an unknown token, and runs only for its key", async () => {
    const { harness, sse } = await gatewayWith();
    const token = await reserved(sse, ACME);
    const guessed = "A".repeat(43);
    harness.takeUpstreamRequests();
    await expectNotHere(sse.open(token, undefined));
    await expectNotHere(sse.open(token, GLOBEX));
    await expectNotHere(sse.open(guessed, ACME));
    await expectNotHere(sse.post(token, undefined, ORGANIZATION, "stolen"));
    await expectNotHere(sse.post(token, GLOBEX, ORGANIZATION, "stolen"));
    await expectNotHere(sse.post(guessed, ACME, ORGANIZATION, "stolen"));
    await expectNotHere(sse.remove(token, undefined, "mine"));
    await expectNotHere(sse.remove(token, GLOBEX, "mine"));
    expect(harness.takeUpstreamRequests()).toEqual([]);

    const stream = await sse.open(token, ACME);
    expect(stream.status).toBe(200);
    expect((await sse.post(token, ACME, SUBSCRIPTION.trim(), "live", { id: LIVE })).status).toBe(
      202,
    );
    expect((await sse.post(token, ACME, ORGANIZATION, "mine")).status).toBe(202);
    // Nobody else can end Acme's subscription.
    await expectNotHere(sse.remove(token, undefined, "live"));
    await expectNotHere(sse.remove(token, GLOBEX, "live"));
    const seen = await readUntil(stream, (text) => text.includes('"id":"mine"'));
    expect(seen.text).toContain("Acme Health");
    expect(seen.text).not.toContain('"id":"stolen"');
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    expect((await sse.remove(token, ACME, "live")).status).toBe(200);
    await until(() => harness.gateway.conversationStatusHub.pollerCount === 0, WAIT_MS, "poller");
  });

  it("binds a stream to the session's subject in session mode", async () => {
    const session = (subject: string) => sessionToken({ subject }).then((jwt) => `Bearer ${jwt}`);
    const harness = closing(
      await startHarness({
        gateway: {
          session: {
            verify: createSessionVerifier({ secret: SESSION_SECRET }),
            keys: new Map([["org_acme", DEMO_KEYS.acme]]),
          },
        },
      }),
    );
    const sse = singleConnection(harness.url);
    // The organization's key itself is no session: refused like no key.
    expect((await sse.put(ACME)).status).toBe(401);
    const token = await reserved(sse, await session("alice"));
    await expectNotHere(sse.open(token, await session("mallory")));
    await expectNotHere(sse.open(token, ACME));
    // Another token of the same subject is the same holder.
    const stream = await sse.open(token, await session("alice"));
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });
});

describe("single-connection SSE: bounded", () => {
  it("forgets a reservation nobody opens, and ends what it started", async () => {
    const { harness, sse } = await gatewayWith({ sseReservationTtlMs: 300 });
    const token = await reserved(sse, ACME);
    expect((await sse.post(token, ACME, SUBSCRIPTION.trim(), "live", { id: LIVE })).status).toBe(
      202,
    );
    await until(() => harness.gateway.conversationStatusHub.pollerCount === 1, WAIT_MS, "poller");
    await until(() => harness.gateway.sseStreams.reserved === 0, WAIT_MS, "reservation expired");
    await until(() => harness.gateway.conversationStatusHub.pollerCount === 0, WAIT_MS, "poller");
    await expectNotHere(sse.open(token, ACME));
  });

  it("limits reservations per key and in all", async () => {
    const { harness, sse } = await gatewayWith({
      sseReservationsPerKey: 2,
      sseReservationsTotal: 3,
    });
    // Keys the upstream has accepted: they may take every place.
    await harness.graphql("{ organization { id } }");
    await harness.graphql("{ organization { id } }", undefined, { authorization: GLOBEX });
    await reserved(sse, ACME);
    await reserved(sse, ACME);
    const perKey = await sse.put(ACME);
    expect(perKey.status).toBe(429);
    expect(await perKey.json()).toMatchObject({
      errors: [{ extensions: { code: "RATE_LIMITED", streams: { limit: 2, scope: "key" } } }],
    });
    await reserved(sse, GLOBEX);
    const total = await sse.put(GLOBEX);
    expect(total.status).toBe(429);
    expect(await total.json()).toMatchObject({
      errors: [{ extensions: { streams: { limit: 3, scope: "server" } } }],
    });
  });

  it("lets keys the upstream has not accepted take half the places, not all", async () => {
    const { harness, sse } = await gatewayWith({ sseReservationsTotal: 4 });
    await reserved(sse, "Bearer made-up-1");
    await reserved(sse, "Bearer made-up-2");
    const third = await sse.put("Bearer made-up-3");
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({
      errors: [
        { extensions: { code: "RATE_LIMITED", streams: { limit: 2, scope: "unaccepted" } } },
      ],
    });
    await harness.graphql("{ organization { id } }");
    await reserved(sse, ACME);
    await reserved(sse, ACME);
  });

  it("ends a stream whose queued results pass their bound in bytes", async () => {
    const { harness, sse } = await gatewayWith({ sseMaxQueuedBytes: 2048 });
    const token = await reserved(sse, ACME);
    const agents = "{ agents(first: 20) { nodes { id name status } } }";
    // Each result is about 1.5 kB: the third passes the bound of a stream nobody reads.
    for (let i = 0; i < 3; i++) {
      const response = await sse.post(token, ACME, agents, `agents-${i}`);
      expect([202, 404]).toContain(response.status);
    }
    await until(() => harness.gateway.sseStreams.reserved === 0, WAIT_MS, "stream ended");
    await expectNotHere(sse.post(token, ACME, agents, "after"));
  });

  it("counts open streams against the connection share: /healthz and queries keep answering", async () => {
    // Six connections: four for long-lived ones (graphql-ws sockets and streams), two kept.
    const { harness, sse } = await gatewayWith({}, { maxConnections: 6 });
    const controller = new AbortController();
    try {
      for (let i = 0; i < 4; i++) {
        const token = await reserved(sse, ACME);
        expect((await sse.open(token, ACME, controller.signal)).status).toBe(200);
      }
      expect(harness.gateway.sseStreams.open).toBe(4);
      // They are the graphql-ws sockets' places too.
      const upgrade = await new Promise<number>((resolve) => {
        const socket = new WebSocket(`${harness.url.replace(/^http/, "ws")}/graphql`, [
          "graphql-transport-ws",
        ]);
        socket.on("error", () => resolve(-1));
        socket.on("open", () => {
          socket.close();
          resolve(101);
        });
        socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      });
      expect(upgrade).toBe(503);
      const token = await reserved(sse, ACME);
      const refused = await sse.open(token, ACME);
      expect(refused.status).toBe(503);
      expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
      const query = await harness.graphql("{ organization { name } }");
      expect(query.body.data).toEqual({ organization: { name: "Acme Health" } });
    } finally {
      controller.abort();
    }
    await until(() => harness.gateway.sseStreams.open === 0, WAIT_MS, "streams closed");
  });

  it("closes an open stream that holds no operation for the idle timeout, not one that does", async () => {
    const { harness, sse } = await gatewayWith({}, { webSocketIdleTimeoutMs: 300 });
    const busyToken = await reserved(sse, ACME);
    const busy = await sse.open(busyToken, ACME);
    expect(
      (await sse.post(busyToken, ACME, SUBSCRIPTION.trim(), "live", { id: LIVE })).status,
    ).toBe(202);
    const idleToken = await reserved(sse, ACME);
    const idle = await sse.open(idleToken, ACME);
    expect(idle.status).toBe(200);
    // The idle stream ends: the timeout has passed for both, and the busy one is still open.
    expect((await readUntil(idle, () => false, 5_000)).ended).toBe(true);
    expect(harness.gateway.sseStreams.reserved).toBe(1);
    expect(harness.gateway.sseStreams.open).toBe(1);
    // Once its subscription ends, it is idle too.
    expect((await sse.remove(busyToken, ACME, "live")).status).toBe(200);
    expect((await readUntil(busy, () => false, 5_000)).ended).toBe(true);
    expect(harness.gateway.sseStreams.reserved).toBe(0);
  });

  it("counts a stream's subscriptions as one connection's (graphql-sse's own client)", async () => {
    const { harness } = await gatewayWith({ maxSubscriptionsPerConnection: 2 });
    const client = createClient({
      url: `${harness.url}/graphql/stream`,
      singleConnection: true,
      headers: { authorization: ACME },
      retryAttempts: 0,
    });
    closing({ close: () => client.dispose() });
    const firsts = await Promise.all(
      [1, 2, 3].map(async () => {
        for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
          return result;
        return undefined;
      }),
    );
    const refused = firsts.filter((first) => first?.errors !== undefined);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.errors?.[0]?.extensions).toMatchObject({
      code: "SUBSCRIPTION_LIMIT_EXCEEDED",
      subscriptions: { limit: 2, scope: "connection" },
    });
  });
});

describe("single-connection SSE in a fleet", () => {
  it("answers a request for another instance's stream with the routing it needs", async () => {
    const first = await gatewayWith();
    const second = await gatewayWith();
    const token = await reserved(first.sse, ACME);
    await expectNotHere(second.sse.open(token, ACME));
    await expectNotHere(second.sse.post(token, ACME, ORGANIZATION, "elsewhere"));
    expect(STREAM_NOT_HERE).toMatch(/route every request that carries the token/);
  });

  it("works on any instance behind a balancer that routes by the token's prefix", async () => {
    const gateways = {
      "gw-1": closing(await startHarness({ gateway: { sseTokenPrefix: "gw-1" } })),
      "gw-2": closing(await startHarness({ gateway: { sseTokenPrefix: "gw-2" } })),
    };
    const balancer = closing(await prefixBalancer(gateways));
    for (let i = 0; i < 4; i++) {
      const client = createClient({
        url: `${balancer.url}/graphql/stream`,
        singleConnection: true,
        headers: { authorization: ACME },
        retryAttempts: 0,
      });
      try {
        const results: unknown[] = [];
        for await (const result of client.iterate({ query: ORGANIZATION })) results.push(result);
        expect(results).toHaveLength(1);
        expect(results[0]).toMatchObject({ data: { organization: { name: "Acme Health" } } });
      } finally {
        client.dispose();
      }
    }
    // The PUTs went to both instances; every other request followed its token.
    expect(balancer.reservedOn).toEqual({ "gw-1": 2, "gw-2": 2 });
  });
});

/**
 * The nginx example of docs/fleet.md in a few lines: a request carrying a token goes to the
 * instance its prefix names; one without (a PUT) to each instance in turn.
 */
async function prefixBalancer(instances: Record<string, { url: string }>) {
  const names = Object.keys(instances);
  const reservedOn: Record<string, number> = {};
  let turn = 0;
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", "http://balancer");
    const header = incoming.headers["x-graphql-event-stream-token"];
    const token = (typeof header === "string" ? header : url.searchParams.get("token")) ?? "";
    const prefix = /^([A-Za-z0-9-]+)\./.exec(token)?.[1];
    const name =
      prefix !== undefined && prefix in instances ? prefix : names[turn++ % names.length];
    if (incoming.method === "PUT")
      reservedOn[name as string] = (reservedOn[name as string] ?? 0) + 1;
    const target = new URL((instances[name as string] as { url: string }).url);
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    outgoing.on("close", () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reservedOn,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
