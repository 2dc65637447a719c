import fc from "fast-check";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { type FleetStore, startFleetStore } from "../support/fleet-store.ts";
import { startHangupUpstream } from "../support/hangup-upstream.ts";
import {
  abortedInAnswer,
  cutRunArb,
  cutsIn,
  everyCallEnded,
  sendAndCut,
  watchUnhandledRejections,
} from "../support/hangups.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { type Instance, startInstance } from "./fleet-harness.ts";

// Clients hanging up at random points on a fleet of two gateways over one store, coalescing on:
// most of a run's requests are identical reads cut at one instant, as a load's end cuts them, so
// some leave while their read looks at Redis before joining a call. Nothing a client does that
// way may leave a rejection unhandled, an upstream call unsettled, or a call shared with another
// client aborted under it.

const closing = closedAfterEachTest();

describe("clients hanging up on a fleet", () => {
  // With the read cache on, a cacheable read also looks at Redis's cache before its call.
  it.each([
    ["off", 0],
    ["on", 60],
  ])(
    "leave every gateway alive, no rejection unhandled and no call behind (cache %s)",
    async (_name, cacheTtlS) => {
      const redis = closing(await startFleetStore());
      const sandbox = closing(
        await startSandbox({
          port: 0,
          callIntervalMs: 600_000,
          callDurationMs: 600_000,
          rateLimit: 1_000_000,
        }),
      );
      let calls = 0;
      // Slow enough that reads meet in flight; varied so flights end at many points.
      const upstream = closing(await startHangupUpstream(() => 4 + (calls++ % 7) * 3));
      upstream.forwardTo(sandbox.url);
      // The first instance reaches the store over slow links (on a cluster, which announces each
      // master at its proxy's port, both do), so a join's look at Redis lasts long enough for a
      // hang-up to land inside it often.
      const slowStore = await behindSlowLinks(redis);
      const options = { sharing: { cacheTtlS } };
      const instances: Instance[] = [
        closing(await startInstance(slowStore, upstream.url, options)),
        closing(await startInstance(redis, upstream.url, options)),
      ];
      const rejections = watchUnhandledRejections();
      const cuts = { cut: 0, midAnswer: 0 };
      try {
        await fc.assert(
          fc.asyncProperty(cutRunArb(20, 40), async (run) => {
            const endings = await Promise.all(
              run.cuts.map((cut) => {
                const instance = instances[cut.target % instances.length] as Instance;
                return sendAndCut(instance.url, cut, run.togetherMs);
              }),
            );
            const these = cutsIn(endings);
            cuts.cut += these.cut;
            cuts.midAnswer += these.midAnswer;
            await everyCallEnded(upstream.inFlight);
            expect(rejections.seen).toEqual([]);
            expect(endings.filter(abortedInAnswer)).toEqual([]);
          }),
          { numRuns: 12, endOnFailure: true },
        );
      } finally {
        rejections.stop();
      }
      // The runs did cut: a few hundred requests, most before their answer, some mid-stream.
      expect(cuts.cut).toBeGreaterThan(150);
      expect(cuts.midAnswer).toBeGreaterThan(0);
      for (const instance of instances) {
        expect((await instance.graphql("{ organization { name } }")).body.errors).toBeUndefined();
      }
    },
  );
});

const REPLY_DELAY_MS = 3;

/**
 * The store as an instance reaches it over slow links: one server through a delaying proxy; a
 * cluster's masters each announced at one (the seeds stay direct, the slots lead through them).
 */
async function behindSlowLinks(store: FleetStore): Promise<FleetStore | string> {
  const proxies: TcpProxy[] = [];
  for (const server of store.servers) {
    proxies.push(closing(await startTcpProxy(server.port, { replyDelayMs: REPLY_DELAY_MS })));
  }
  if (store.form === "server") return (proxies[0] as TcpProxy).url("redis");
  const ports = proxies.map((proxy) => proxy.port);
  const nodes = store.servers.map((server) => new Redis(server.url));
  try {
    for (const [i, node] of nodes.entries()) {
      await node.config("SET", "cluster-announce-port", String(ports[i]));
    }
    // Every node tells the masters' new ports before an instance asks for the slots.
    const until = Date.now() + 10_000;
    for (;;) {
      const answers = await Promise.all(nodes.map((node) => node.cluster("SLOTS")));
      const told = answers.map((slots) => slots.map((range) => range[2]?.[1]));
      if (told.every((seen) => seen.every((port) => port !== undefined && ports.includes(port))))
        break;
      if (Date.now() > until) throw new Error(`the proxies' ports not announced: ${told}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    for (const node of nodes) node.disconnect();
  }
  return store;
}
