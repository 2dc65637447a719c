import { describe, expect, it } from "vitest";
import { fleetKeyNamer, prefixKeepsTags } from "../../src/fleet/redis-keys.ts";

describe("the fleet's key names", () => {
  it("put the part that must stay together in a hash tag, after the kind", () => {
    const key = fleetKeyNamer("voicegraph:");
    expect(key("wver")).toBe("voicegraph:wver");
    expect(key("seq", "h1:conv_1")).toBe("voicegraph:seq:{h1:conv_1}");
    expect(key("cache", "h1", "GET /v1/agents")).toBe("voicegraph:cache:{h1}:GET /v1/agents");
  });

  it("take a prefix with one whole tag, or none", () => {
    for (const prefix of ["voicegraph:", "{vg}:", "app:{fleet-1}:"]) {
      expect(prefixKeepsTags(prefix), prefix).toBe(true);
    }
    for (const prefix of ["vg{:", "vg}:", "{}:", "{a}{b}:", "{a{b}}:"]) {
      expect(prefixKeepsTags(prefix), prefix).toBe(false);
    }
  });
});
