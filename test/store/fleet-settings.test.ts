import { describe, expect, it } from "vitest";
import { readGatewayConfig } from "../../src/gateway/settings/config.ts";

const SECRET = "a-fleet-wide-cursor-secret-of-32-characters!";

describe("the fleet's store settings", () => {
  it("take a Redis Cluster as its seed nodes", () => {
    const config = readGatewayConfig({
      REDIS_CLUSTER_NODES: "10.0.0.1:6379, redis-2.internal:6380",
      CURSOR_SECRET: SECRET,
    });
    expect(config.REDIS_CLUSTER_NODES).toEqual(["10.0.0.1:6379", "redis-2.internal:6380"]);
  });

  it("refuse seed nodes without a port, both forms at once, or either without CURSOR_SECRET", () => {
    expect(() =>
      readGatewayConfig({ REDIS_CLUSTER_NODES: "10.0.0.1", CURSOR_SECRET: SECRET }),
    ).toThrow(/REDIS_CLUSTER_NODES must be host:port seed nodes/);
    expect(() =>
      readGatewayConfig({
        REDIS_URL: "redis://10.0.0.1:6379",
        REDIS_CLUSTER_NODES: "10.0.0.1:6379",
        CURSOR_SECRET: SECRET,
      }),
    ).toThrow("set REDIS_URL (one server) or REDIS_CLUSTER_NODES");
    expect(() => readGatewayConfig({ REDIS_CLUSTER_NODES: "10.0.0.1:6379" })).toThrow(
      "REDIS_CLUSTER_NODES needs CURSOR_SECRET",
    );
  });

  it("let REDIS_PREFIX hold one whole hash tag", () => {
    expect(readGatewayConfig({ REDIS_PREFIX: "{vg}:" }).REDIS_PREFIX).toBe("{vg}:");
    expect(() => readGatewayConfig({ REDIS_PREFIX: "vg{:" })).toThrow(/REDIS_PREFIX may hold one/);
    expect(() => readGatewayConfig({ REDIS_PREFIX: "vg*:" })).toThrow(/REDIS_PREFIX must be/);
  });
});
