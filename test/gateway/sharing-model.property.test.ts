import { afterAll, beforeAll, describe, it } from "vitest";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { type ListeningGateway, listen } from "../../src/gateway/transport/server.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import {
  CONFIGS,
  checkSharingModel,
  type ModelUpstream,
  type SharingWorld,
  startModelUpstream,
} from "../support/sharing-model.ts";
import { FAST_PATH } from "./harness.ts";

// The sharing model (test/support/sharing-model.ts) without Redis: two gateways that share
// nothing, each held to its own instance's promises (a write answered through it is never read
// older there), every answer its own organization's. The fleet suite runs it over one Redis.

let upstream: ModelUpstream;
const pairs: Array<Array<{ server: ListeningGateway; client: UpstreamClient }>> = [];

beforeAll(async () => {
  upstream = await startModelUpstream();
  for (const sharing of CONFIGS) {
    const pair = [];
    for (let i = 0; i < 2; i++) {
      const client = createUpstreamClient({ baseUrl: upstream.url, maxRetries: 0 });
      const gateway = createGateway({
        upstream: client,
        logging: false,
        sharing: { coalesce: sharing.coalesce, cacheTtlS: sharing.cacheTtlS },
        // Places enough for every operation of a run: none waits in a key's queue.
        bounds: { upstreamConnectionsPerKey: 32 },
      });
      pair.push({ server: await listen(gateway, 0, "127.0.0.1", { fastPath: FAST_PATH }), client });
    }
    pairs.push(pair);
  }
});

afterAll(async () => {
  for (const { server, client } of pairs.flat()) {
    await server.close();
    await client.close();
  }
  await upstream?.close();
});

/**
 * Failures the model found before a write detached the reads in flight (config index, seed,
 * path), replayed first: reads that joined a call from before their instance's answered write.
 */
const REGRESSIONS: Array<{ config: number; seed: number; path: string }> = [
  { config: 0, seed: 1548085500, path: "20" },
  { config: 1, seed: -1919035536, path: "52" },
  { config: 1, seed: 1575049001, path: "8" },
];

describe("sharing in one process, as a model over interleavings", () => {
  for (const [index, config] of CONFIGS.entries()) {
    const name = `coalescing ${config.coalesce ? "on" : "off"}, cache ${config.cacheTtlS ? "on" : "off"}`;
    it(`never answers stale or foreign: ${name}`, async () => {
      const world = (): SharingWorld => ({
        fleet: false,
        upstream,
        instances: (pairs[index] ?? []).map(({ server }) => ({
          url: server.url,
          redisAvailable: () => false,
        })),
        settle: () => new Promise((resolve) => setImmediate(resolve)),
      });
      // A third of the fleet's runs: this one runs in every `npm test`, in each gateway project.
      await checkSharingModel(
        world,
        config,
        REGRESSIONS.filter((r) => r.config === index),
        Math.ceil(config.runs / 3),
      );
    }, 120_000);
  }
});
