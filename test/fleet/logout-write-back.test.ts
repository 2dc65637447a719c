import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFleetLogouts, LOGOUT_WRITE_BACK_MAX } from "../../src/fleet/logouts.ts";
import { createFleetRedis, type FleetRedis } from "../../src/fleet/redis.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { waitUntil } from "./fleet-harness.ts";

// A write-back after Redis lost its data is bounded: an instance's latest logouts, unexpired ones.

let redis: RedisServer;
let connection: FleetRedis;
beforeAll(async () => {
  redis = await startRedisServer();
  connection = createFleetRedis({ url: redis.url, prefix: "vgback:" });
  await waitUntil(() => connection.available(), 5_000, "Redis connection");
});
afterAll(async () => {
  await connection.close();
  await redis.close();
});

const hashOf = (n: number) => n.toString(16).padStart(64, "0");

describe("writing logouts back", () => {
  it("writes the latest unexpired ones, at most LOGOUT_WRITE_BACK_MAX, and keeps what Redis has", async () => {
    const logouts = createFleetLogouts(connection);
    try {
      const now = Date.now();
      const held = new Map<string, number>();
      held.set(hashOf(0), now - 1_000); // expired: not written
      for (let n = 1; n <= LOGOUT_WRITE_BACK_MAX + 5; n += 1) held.set(hashOf(n), now + 60_000);
      await connection.client.set(`vgback:logout:{${hashOf(9)}}`, "12345", "PX", 60_000);

      await logouts.writeBack(held);
      const keys = new Set<string>();
      let cursor = "0";
      do {
        const [next, found] = await connection.client.scan(
          cursor,
          "MATCH",
          "vgback:logout*",
          "COUNT",
          1000,
        );
        cursor = next;
        for (const key of found) keys.add(key);
      } while (cursor !== "0");
      expect(keys.size).toBe(LOGOUT_WRITE_BACK_MAX);
      // The oldest five and the expired one are left out; the latest is in, with its expiry.
      for (let n = 0; n <= 5; n += 1) {
        expect(keys.has(`vgback:logout:{${hashOf(n)}}`)).toBe(false);
      }
      const latest = `vgback:logout:{${hashOf(LOGOUT_WRITE_BACK_MAX + 5)}}`;
      expect(await connection.client.get(latest)).toBe(String(now + 60_000));
      expect(await connection.client.pttl(latest)).toBeGreaterThan(50_000);
      // A logout already there is left as it was.
      expect(await connection.client.get(`vgback:logout:{${hashOf(9)}}`)).toBe("12345");
    } finally {
      logouts.close();
    }
  });
});
