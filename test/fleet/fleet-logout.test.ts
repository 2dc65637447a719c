import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { closedAfterEachTest } from "../support/closing.ts";
import { FLEET_STORE, startFleetStore } from "../support/fleet-store.ts";
import { sessionToken } from "../support/session-token.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";
import {
  type Fleet,
  followOverSocket,
  type Instance,
  PREFIX,
  SESSION_APP,
  SESSION_COOKIE,
  SESSION_GATEWAY,
  SESSION_LISTEN,
  sha256,
  startFleet,
  startInstance,
  waitUntil,
} from "./fleet-harness.ts";

// Session mode over a cookie in a fleet: a logout answered by one instance holds on every one.

const closing = closedAfterEachTest();
const COOKIE = SESSION_COOKIE;
const APP = SESSION_APP;
const GATEWAY = SESSION_GATEWAY;
const LISTEN = SESSION_LISTEN;
const ORGANIZATION = "{ organization { name } }";
const LIVE = "query @live { organization { name } }";

const token = (subject: string) => sessionToken({ subject });

/** A page's request to one instance with the session cookie and the CSRF header. */
function fromPage(instance: Instance, session: string, query = ORGANIZATION, accept?: string) {
  return fetch(`${instance.url}/graphql`, {
    method: "POST",
    headers: {
      cookie: `${COOKIE}=${session}`,
      origin: APP,
      "x-graphql-csrf": "1",
      "content-type": "application/json",
      accept: accept ?? "application/graphql-response+json",
    },
    body: JSON.stringify({ query }),
  });
}

async function statusOn(instance: Instance, session: string): Promise<number> {
  const response = await fromPage(instance, session);
  await response.arrayBuffer();
  return response.status;
}

function logout(instance: Instance, session: string) {
  return fetch(`${instance.url}/graphql/logout`, {
    method: "POST",
    headers: { cookie: `${COOKIE}=${session}`, origin: APP, "x-graphql-csrf": "1" },
  });
}

/** An SSE live query on one instance, its first event read: `ended` settles when it is cut. */
async function openStream(instance: Instance, session: string) {
  const response = await fromPage(instance, session, LIVE, "text/event-stream");
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return "ended";
  })().catch(() => "ended");
  return { ended, close: () => reader.cancel().catch(() => undefined) };
}

/** A live query over graphql-ws from the page: `closed` settles with the socket's close code. */
function openSocket(instance: Instance, session: string) {
  const headers = { origin: APP, cookie: `${COOKIE}=${session}` };
  class BrowserSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  const client = createClient({
    url: `${instance.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: BrowserSocket,
    retryAttempts: 0,
    lazy: true,
    onNonLazyError: () => undefined,
  });
  return followOverSocket(client, LIVE);
}

/** What `promise` settles with, or "still open" after `ms`: a missing close fails, never hangs. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "still open"> {
  return Promise.race([
    promise,
    new Promise<"still open">((resolve) => setTimeout(() => resolve("still open"), ms)),
  ]);
}

/**
 * An instance started now refuses the logged-out token by cookie, by `Authorization` and over
 * graphql-ws, and admits another session.
 */
async function expectRefusedByALateInstance(fleet: Fleet, session: string): Promise<void> {
  const late = closing(await startInstance(fleet.redis, fleet.sandbox.url, GATEWAY, LISTEN));
  expect(await statusOn(late, session)).toBe(401);
  const byHeader = await late.graphql(ORGANIZATION, { authorization: `Bearer ${session}` });
  expect(byHeader.status).toBe(401);
  expect(byHeader.body.errors?.[0]?.message).toBe("This session has logged out: sign in again.");
  const socket = openSocket(late, session);
  expect(await within(socket.closed, 5_000)).toBe(4403);
  await socket.close();
  expect(await statusOn(late, await token("user-signed-in-after"))).toBe(200);
}

describe(`a session's logout in a fleet (${FLEET_STORE})`, () => {
  it("is refused on every instance, ends the session's streams and sockets there, and no other session's", async () => {
    const fleet = closing(await startFleet(3, { gateway: GATEWAY, listen: LISTEN }));
    const [a, b, c] = fleet.instances as [Instance, Instance, Instance];
    const session = await token("user-logging-out");
    const other = await token("user-staying");
    for (const instance of [a, b, c]) expect(await statusOn(instance, session)).toBe(200);
    const stream = await openStream(b, session);
    const socket = openSocket(c, session);
    const otherStream = await openStream(b, other);
    const otherSocket = openSocket(c, other);
    await Promise.all([socket.delivered, otherSocket.delivered]);

    const answer = await logout(a, session);
    expect(answer.status).toBe(204);
    expect(await within(stream.ended, 5_000)).toBe("ended");
    expect(await within(socket.closed, 5_000)).toBe(4403);
    for (const instance of [a, b, c]) expect(await statusOn(instance, session)).toBe(401);
    const refused = await fromPage(b, session);
    expect((await refused.json()).errors[0]).toMatchObject({
      message: "This session has logged out: sign in again.",
      extensions: { code: "UNAUTHENTICATED" },
    });

    // Another session of the same organization goes on, its streams too.
    for (const instance of [a, b, c]) expect(await statusOn(instance, other)).toBe(200);
    expect(await within(otherStream.ended, 300)).toBe("still open");
    expect(await within(otherSocket.closed, 300)).toBe("still open");
    await otherStream.close();
    await otherSocket.close();
    await socket.close();

    // Only the hash of what the token's signature covers reaches Redis, until the token expires.
    const keys = await fleet.redis.keys(`${PREFIX}logout*`);
    expect(keys).toEqual([
      `${PREFIX}logout:{${sha256(session.slice(0, session.lastIndexOf(".")))}}`,
    ]);
    const probe = fleet.redis.client();
    try {
      const ttl = await probe.pttl(keys[0] as string);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(10 * 60_000);
      expect(await probe.get(keys[0] as string)).not.toContain(session);
    } finally {
      probe.disconnect();
    }
  });

  it("is refused by an instance started after it, and a socket there is refused too", async () => {
    const fleet = closing(await startFleet(1, { gateway: GATEWAY, listen: LISTEN }));
    const [a] = fleet.instances as [Instance];
    const session = await token("user-logged-out-earlier");
    expect((await logout(a, session)).status).toBe(204);

    const late = closing(await startInstance(fleet.redis, fleet.sandbox.url, GATEWAY, LISTEN));
    expect(await statusOn(late, session)).toBe(401);
    const socket = openSocket(late, session);
    expect(await within(socket.closed, 5_000)).toBe(4403);
    await socket.close();
    expect(await statusOn(late, await token("user-signed-in"))).toBe(200);
  });

  it("holds on its own instance while Redis is gone, without waiting, and reaches the fleet when Redis returns", async () => {
    const fleet = closing(await startFleet(2, { gateway: GATEWAY, listen: LISTEN }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const session = await token("user-logging-out-offline");
    await fleet.redis.kill();
    await waitUntil(
      () => !a.redis.available() && !b.redis.available(),
      5_000,
      "Redis seen as gone",
    );

    const started = Date.now();
    expect((await logout(a, session)).status).toBe(204);
    expect(await statusOn(a, session)).toBe(401);
    // The other instance has not heard of it: it admits the token, as it did before fleets.
    expect(await statusOn(b, session)).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);

    await fleet.redis.restart();
    await waitUntil(() => a.redis.available() && b.redis.available(), 10_000, "Redis seen again");
    const until = Date.now() + 5_000;
    while ((await statusOn(b, session)) !== 401 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await statusOn(b, session)).toBe(401);
    expect(await statusOn(a, session)).toBe(401);
  });

  it("is written back when Redis returns empty, so an instance started afterwards refuses it", async () => {
    const fleet = closing(await startFleet(2, { gateway: GATEWAY, listen: LISTEN }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const session = await token("user-logged-out-before-a-crash");
    expect((await logout(a, session)).status).toBe(204);
    await fleet.redis.kill();
    await waitUntil(() => !a.redis.available() && !b.redis.available(), 5_000, "Redis gone");
    await fleet.redis.restart();
    await waitUntil(() => a.redis.available() && b.redis.available(), 10_000, "Redis back");
    // Back empty: only the instances that remember the logout can put it there again.
    const key = `${PREFIX}logout:{${sha256(session.slice(0, session.lastIndexOf(".")))}}`;
    const until = Date.now() + 5_000;
    while (!(await fleet.redis.keys(`${PREFIX}logout*`)).includes(key) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await fleet.redis.keys(`${PREFIX}logout*`)).toEqual([key]);

    await expectRefusedByALateInstance(fleet, session);
  });

  // A FLUSHALL (or a failover to an empty replica) keeps every link up: no reconnection tells
  // the instances, only the store's life, which each checks every second.
  it("is written back when the store loses its data with the link kept up", async () => {
    const fleet = closing(await startFleet(2, { gateway: GATEWAY, listen: LISTEN }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const session = await token("user-logged-out-before-a-flush");
    expect((await logout(a, session)).status).toBe(204);
    const key = `${PREFIX}logout:{${sha256(session.slice(0, session.lastIndexOf(".")))}}`;
    expect(await fleet.redis.keys(`${PREFIX}logout*`)).toEqual([key]);
    await fleet.redis.onEachServer("flushall");
    const until = Date.now() + 5_000;
    while (!(await fleet.redis.keys(`${PREFIX}logout*`)).includes(key) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await fleet.redis.keys(`${PREFIX}logout*`)).toEqual([key]);
    expect(a.redis.available() && b.redis.available()).toBe(true);

    await expectRefusedByALateInstance(fleet, session);
  });

  // A paused server holds writes and still answers reads: the logout's command times out while
  // Redis stays reachable, which changes no availability, so only the resend sends it again.
  it("is sent again a second after Redis took longer than the command timeout", async () => {
    const redis = closing(await startFleetStore("server"));
    const fleet = closing(await startFleet(2, { redis, gateway: GATEWAY, listen: LISTEN }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const session = await token("user-logging-out-slowly");
    const listener = redis.client();
    const probe = redis.client();
    try {
      let heard = 0;
      listener.on("message", () => {
        heard += 1;
      });
      await listener.subscribe(`${PREFIX}logouts`);
      await probe.call("CLIENT", "PAUSE", "600", "WRITE");

      expect((await logout(a, session)).status).toBe(204);
      expect(await statusOn(a, session)).toBe(401);
      // The held command runs once the pause ends; the resend a second after its timeout again.
      await waitUntil(() => heard >= 2, 5_000, "the logout published again");
      expect(await statusOn(b, session)).toBe(401);
      expect(a.redis.available() && b.redis.available()).toBe(true);
    } finally {
      listener.disconnect();
      probe.disconnect();
    }
  });

  // A TCP proxy cuts one server's link (a cluster client finds every master on its own): one
  // server, whichever store the pass runs on.
  it("ends a stream on an instance that was cut off from Redis once its link returns", async () => {
    const redis = closing(await startFleetStore("server"));
    const fleet = closing(await startFleet(1, { redis, gateway: GATEWAY, listen: LISTEN }));
    const [a] = fleet.instances as [Instance];
    const proxy = closing(await startTcpProxy((redis.servers[0] as { port: number }).port));
    const b = closing(await startInstance(proxy.url("redis"), fleet.sandbox.url, GATEWAY, LISTEN));
    const session = await token("user-logging-out-elsewhere");
    const stream = await openStream(b, session);
    proxy.cut();
    await waitUntil(() => !b.redis.available(), 5_000, "the instance cut off");

    expect((await logout(a, session)).status).toBe(204);
    // Cut off, it heard nothing: the stream runs on until the link returns.
    expect(await within(stream.ended, 300)).toBe("still open");
    proxy.restore();
    await waitUntil(() => b.redis.available(), 10_000, "the instance back");
    expect(await within(stream.ended, 5_000)).toBe("ended");
    expect(await statusOn(b, session)).toBe(401);
  });
});
