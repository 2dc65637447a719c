import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { startHeldUpstream } from "../gateway/held-upstream.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import type { RedisServer } from "../support/redis-server.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";
import { type Instance, PREFIX, startInstance, waitUntil } from "./fleet-harness.ts";

// A client that wrote through one instance and reads through another reads its write, with the
// read cache off (the default): a read joins a call in flight on its instance only if no write
// was answered anywhere in the fleet since that call began. The upstream holds each read until
// the test releases it, so the order is the test's.

const closing = closedAfterEachTest();
const KEY = { authorization: "Bearer k_writer" };
const READ = '{ agent(id: "agt_a1") { id name } }';
const rename = (name: string) =>
  `mutation { updateAgent(id: "agt_a1", input: { name: "${name}" }) { agent { name } } }`;
type Cost = { upstreamCalls: number; joinedCalls?: number };
const costOf = (answer: { body: { extensions?: Record<string, unknown> } }) =>
  answer.body.extensions?.cost as Cost;
const nameOf = (answer: { body: { data?: unknown } }) =>
  (answer.body.data as { agent: { name: string } | null } | null | undefined)?.agent?.name;

async function setUp(
  options: {
    readerThroughProxy?: boolean;
    writerThroughProxy?: boolean;
    /** One server's statistics or link: one server, whichever store the pass runs on. */
    oneServer?: boolean;
    /** Fleet flights on (the default) or off: a flight's own cost is fleet-flights.test.ts's. */
    flights?: boolean;
  } = {},
) {
  const store = closing(await startFleetStore(options.oneServer ? "server" : undefined));
  // One server's, for the tests that cut or count its link (one server only).
  const redis = store.servers[0] as RedisServer;
  const upstream = closing(
    await startHeldUpstream({ keys: { k_writer: "org_a" }, agents: { org_a: ["agt_a1"] } }),
  );
  const proxy = closing(await startTcpProxy(redis.port));
  // The default sharing: coalescing on, the read cache off.
  const sharing = { sharing: { fleetFlights: options.flights ?? true } };
  const a = closing(
    await startInstance(
      options.writerThroughProxy ? proxy.url("redis") : store,
      upstream.url,
      sharing,
    ),
  );
  const b = closing(
    await startInstance(
      options.readerThroughProxy ? proxy.url("redis") : store,
      upstream.url,
      sharing,
    ),
  );
  // The key proves itself on both first, so no probe stands between the steps below.
  for (const instance of [a, b])
    expect(nameOf(await instance.graphql(READ, KEY))).toBe("agt_a1 v0");
  return { redis, upstream, proxy, a, b };
}

/**
 * Starts a read on `instance` while one call of the agent is held there, and waits until it made
 * a call of its own (held too; a read that joined instead is seen at the bound, and its answer
 * says so): then releases both.
 */
async function readBeside(
  instance: Instance,
  upstream: Awaited<ReturnType<typeof startHeldUpstream>>,
) {
  const answer = instance.graphql(READ, KEY);
  await upstream.held(2).catch(() => undefined);
  upstream.hold(false);
  upstream.release();
  return answer;
}

/** A connection of the test's own to Redis, closed when the test ends. */
function probeOf(url: string): Redis {
  const probe = new Redis(url);
  closing({ close: () => probe.disconnect() });
  return probe;
}

/** How many times Redis ran `command` since its statistics were last reset. */
async function commandCalls(probe: Redis, command: string): Promise<number> {
  const stats = await probe.info("commandstats");
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

/**
 * Starts a read on `instance` while one call of the agent is held there, waits until Redis has
 * run its look at the write version (the only GET; statistics reset before) and then one more
 * round trip, by which time the gateway (this process) has read that answer and joined; then
 * releases the held call.
 */
async function joinBeside(
  instance: Instance,
  upstream: Awaited<ReturnType<typeof startHeldUpstream>>,
  probe: Redis,
) {
  const answer = instance.graphql(READ, KEY);
  const until = Date.now() + 5_000;
  while ((await commandCalls(probe, "get")) === 0) {
    if (Date.now() > until) throw new Error("no look at the write version within 5 s");
  }
  await probe.ping();
  upstream.hold(false);
  upstream.release();
  return answer;
}

describe("read-your-writes across a fleet, the read cache off", () => {
  it("a read on B after a write answered on A joins no call B began before it", async () => {
    const { upstream, a, b } = await setUp();
    upstream.hold(true);
    const slow = b.graphql(READ, KEY);
    await upstream.held(1);
    const renamed = await a.graphql(rename("after"), KEY);
    expect(renamed.body.data).toEqual({ updateAgent: { agent: { name: "after" } } });
    const answer = await readBeside(b, upstream);
    expect(nameOf(answer)).toBe("after");
    expect(costOf(answer)).toMatchObject({ upstreamCalls: 1 });
    expect(costOf(answer).joinedCalls).toBeUndefined();
    // The read that began before the write may answer either; it answers what it read.
    expect(nameOf(await slow)).toBe("agt_a1 v0");
  });

  // One server's statistics or link (a cluster's are spread over its masters): one server.
  it("with no write between, a read still joins: only the join looks at Redis, once", async () => {
    const { redis, upstream, b } = await setUp({ oneServer: true, flights: false });
    const probe = probeOf(redis.url);
    // Without fleet flights, the leader's call sends Redis nothing; the join, one GET.
    await probe.config("RESETSTAT");
    upstream.hold(true);
    const first = b.graphql(READ, KEY);
    await upstream.held(1);
    const answer = await joinBeside(b, upstream, probe);
    expect(costOf(answer)).toMatchObject({ upstreamCalls: 0, joinedCalls: 1 });
    expect(nameOf(answer)).toBe("agt_a1 v0");
    expect(nameOf(await first)).toBe("agt_a1 v0");
    expect(upstream.requests.filter((r) => r.startsWith("GET"))).toHaveLength(3);
    const stats = await probe.info("commandstats");
    const commands = [...stats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)]
      .map(([, command, calls]) => `${command} ${calls}`)
      .filter((line) => !/^(config|info|ping) /.test(line));
    expect(commands).toEqual(["get 1"]);
  });

  // One server's statistics or link (a cluster's are spread over its masters): one server.
  it("a call begun after the instance's own write is joined at once", async () => {
    const { redis, upstream, a } = await setUp({ oneServer: true });
    const probe = probeOf(redis.url);
    await a.graphql(rename("after"), KEY);
    upstream.hold(true);
    const first = a.graphql(READ, KEY);
    await upstream.held(1);
    await probe.config("RESETSTAT");
    const answer = await joinBeside(a, upstream, probe);
    expect(costOf(answer)).toMatchObject({ upstreamCalls: 0, joinedCalls: 1 });
    expect(nameOf(answer)).toBe("after");
    expect(nameOf(await first)).toBe("after");
  });

  // One server's statistics or link (a cluster's are spread over its masters): one server.
  it("a reader that cannot reach Redis joins nothing: it cannot tell whether a write came", async () => {
    const { upstream, proxy, b } = await setUp({ readerThroughProxy: true, oneServer: true });
    upstream.hold(true);
    const slow = b.graphql(READ, KEY);
    await upstream.held(1);
    proxy.cut();
    await waitUntil(() => !b.redis.available(), 5_000, "the reader cut off");
    const answer = await readBeside(b, upstream);
    expect(costOf(answer)).toMatchObject({ upstreamCalls: 1 });
    expect(costOf(answer).joinedCalls).toBeUndefined();
    await slow;
  });

  // One server's statistics or link (a cluster's are spread over its masters): one server.
  it("a write made while its instance is cut off reaches the fleet's joins once the link is back", async () => {
    const { redis, upstream, proxy, a, b } = await setUp({
      writerThroughProxy: true,
      oneServer: true,
    });
    const probe = new Redis(redis.url);
    try {
      const token = () => probe.get(`${PREFIX}wver`);
      const before = await token();
      upstream.hold(true);
      const slow = b.graphql(READ, KEY);
      await upstream.held(1);
      proxy.cut();
      await waitUntil(() => !a.redis.available(), 5_000, "the writer cut off");
      const renamed = await a.graphql(rename("while cut off"), KEY);
      expect(renamed.body.data).toEqual({ updateAgent: { agent: { name: "while cut off" } } });
      // The writer reads its write at once: its own calls in flight were detached.
      upstream.hold(false);
      expect(nameOf(await a.graphql(READ, KEY))).toBe("while cut off");
      expect(await token()).toBe(before);
      // The bump it kept goes the moment the link is back.
      upstream.hold(true);
      proxy.restore();
      const until = Date.now() + 10_000;
      while ((await token()) === before) {
        if (Date.now() > until) throw new Error("the kept bump did not land within 10 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answer = await readBeside(b, upstream);
      expect(nameOf(answer)).toBe("while cut off");
      expect(costOf(answer).joinedCalls).toBeUndefined();
      await slow;
    } finally {
      probe.disconnect();
    }
  });
});
