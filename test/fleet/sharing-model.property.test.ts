import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import {
  CONFIGS,
  checkSharingModel,
  type ModelUpstream,
  type SharingWorld,
  startModelUpstream,
} from "../support/sharing-model.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { type Instance, startInstance } from "./fleet-harness.ts";

// The sharing model (test/support/sharing-model.ts) over a fleet: two gateways over one Redis, the
// first through a real TCP proxy the model cuts and gives back.

let redis: RedisServer;
let upstream: ModelUpstream;
let probe: Redis;
const fleets: Instance[][] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  upstream = await startModelUpstream();
  probe = new Redis(redis.url);
  for (const sharing of CONFIGS) {
    // Places enough for every operation of a run: none waits in a key's queue.
    const options = {
      sharing: { coalesce: sharing.coalesce, cacheTtlS: sharing.cacheTtlS },
      logging: false as const,
      bounds: { upstreamConnectionsPerKey: 32 },
    };
    const proxy = await startTcpProxy(redis.port);
    proxies.push(proxy);
    fleets.push([
      await startInstance(proxy.url("redis"), upstream.url, options),
      await startInstance(redis.url, upstream.url, options),
    ]);
  }
});

afterAll(async () => {
  for (const instance of fleets.flat()) await instance.close();
  for (const proxy of proxies) await proxy.close();
  probe?.disconnect();
  await upstream?.close();
  await redis?.close();
});

/**
 * Failures the model found (config index, seed, path), replayed first. Before reads detached on
 * writes and versions were per resource: a read that joined a call from before its key's
 * answered write; a read-only key that kept reading its entry after the other key's write.
 * Before a join looked at the fleet's write version: a read on one instance that joined a call
 * begun there before a write answered through the other (the cache off), and a read on an
 * instance cut off from Redis that did the same (the cache on).
 */
const REGRESSIONS: Array<{ config: number; seed: number; path: string }> = [
  { config: 0, seed: -1624052421, path: "12" },
  { config: 1, seed: -1212966230, path: "21" },
  { config: 0, seed: -1268885691, path: "44" },
  { config: 1, seed: 117246138, path: "255" },
];

// Its links are cut by a TCP proxy in front of one server: on a cluster the client finds every
// master on its own, so the model runs on one server.
describe("sharing in a fleet, as a model over interleavings", () => {
  for (const [index, config] of CONFIGS.entries()) {
    const name = `coalescing ${config.coalesce ? "on" : "off"}, cache ${config.cacheTtlS ? "on" : "off"}`;
    it(`never answers stale or foreign: ${name}`, async () => {
      const world = (): SharingWorld => ({
        fleet: true,
        upstream,
        instances: (fleets[index] as Instance[]).map((instance) => ({
          url: instance.url,
          redisAvailable: () => instance.redis.available(),
        })),
        proxy: proxies[index] as TcpProxy,
        // Two Redis round trips for what a gateway has under way there.
        settle: async () => {
          for (let i = 0; i < 2; i++) await probe.ping();
        },
      });
      await checkSharingModel(
        world,
        config,
        REGRESSIONS.filter((r) => r.config === index),
      );
    }, 120_000);
  }
});
