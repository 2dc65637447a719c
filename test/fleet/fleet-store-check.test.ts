import { describe, expect, it } from "vitest";
import { checkFleetStore } from "../../src/fleet/redis-fitness.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startRedisCluster } from "../support/redis-cluster.ts";
import { freePort, type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { scriptPerTest } from "../support/scripts.ts";
import { CURSOR_SECRET } from "./fleet-harness.ts";

// A store that cannot hold the fleet's state is refused at start-up, with one line saying what
// to set. These start their own servers of each form: they run once, in the one-server pass.

const closing = closedAfterEachTest();
const seedsOf = (servers: readonly RedisServer[]) =>
  servers.map((server) => ({ host: "127.0.0.1", port: server.port }));
const check = (target: { url?: string; clusterNodes?: Array<{ host: string; port: number }> }) =>
  checkFleetStore({ ...target, waitMs: 2_000 });

describe("the fleet's store, checked at start-up", () => {
  it("takes a plain server as REDIS_URL and a cluster as REDIS_CLUSTER_NODES", async () => {
    const server = closing(await startRedisServer());
    expect(await check({ url: server.url })).toBe("fit");
    const cluster = closing(await startRedisCluster());
    expect(await check({ clusterNodes: seedsOf(cluster.masters) })).toBe("fit");
  });

  it("starts on its own state when the store does not answer, rather than refuse", async () => {
    expect(await check({ url: `redis://127.0.0.1:${await freePort()}` })).toBe("unreachable");
  });

  it("refuses a cluster's node given as REDIS_URL, and a plain server given as cluster nodes", async () => {
    const cluster = closing(await startRedisCluster());
    await expect(check({ url: cluster.masters[0]?.url })).rejects.toThrow(
      /^REDIS_URL names 127\.0\.0\.1:\d+, a node of a Redis Cluster: set REDIS_CLUSTER_NODES=host:port,… \(its nodes\) instead of REDIS_URL$/,
    );
    const server = closing(await startRedisServer());
    await expect(check({ clusterNodes: seedsOf([server]) })).rejects.toThrow(
      /^REDIS_CLUSTER_NODES names 127\.0\.0\.1:\d+, a server without cluster mode: set REDIS_URL=redis:\/\/127\.0\.0\.1:\d+ instead$/,
    );
  });

  it("refuses a maxmemory-policy that evicts keys with a TTL, allkeys-* or volatile-*", async () => {
    for (const policy of ["allkeys-lru", "volatile-ttl"]) {
      const server = closing(await startRedisServer(["--maxmemory-policy", policy]));
      await expect(check({ url: server.url })).rejects.toThrow(
        `REDIS_URL: 127.0.0.1:${server.port} has maxmemory-policy ${policy}, which evicts the fleet's leases and versions (every key has a TTL): set maxmemory-policy noeviction`,
      );
    }
  });

  it("refuses a store where a command the fleet needs is renamed away, naming it", async () => {
    const server = closing(await startRedisServer(["--rename-command", "EVALSHA", ""]));
    await expect(check({ url: server.url })).rejects.toThrow(
      /^REDIS_URL: 127\.0\.0\.1:\d+ lacks EVALSHA \(renamed or disabled\): the fleet needs .*EVALSHA; enable them/,
    );
    // On any master of a cluster alike.
    const cluster = closing(await startRedisCluster());
    const renamed = closing(
      await startRedisServer(["--rename-command", "PUBLISH", "PUBLISH_HIDDEN"]),
    );
    await expect(check({ clusterNodes: seedsOf(cluster.masters) })).resolves.toBe("fit");
    await expect(check({ url: renamed.url })).rejects.toThrow(/lacks PUBLISH \(renamed/);
  });

  describe("npm start", () => {
    const start = scriptPerTest("src/main.ts", { CURSOR_SECRET, PORT: "0" });

    it("stops with one line naming what to set", async () => {
      const server = closing(await startRedisServer(["--maxmemory-policy", "allkeys-lru"]));
      const run = start({ REDIS_URL: server.url });
      const code = await new Promise<number | null>((resolve) =>
        run.child.once("exit", (exitCode) => resolve(exitCode)),
      );
      expect(code).not.toBe(0);
      const { stderr } = run.output();
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(/maxmemory-policy allkeys-lru.*set maxmemory-policy noeviction/);
    });
  });
});
