import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { FlightListeners } from "../../src/fleet/flights-in-air.ts";
import { createMemoryReadCache } from "../../src/upstream/read-cache.ts";

/** Timers armed while `steps` run, each step a few milliseconds after the last (a cold clock). */
async function timersArmed(steps: Array<() => unknown>): Promise<number> {
  let armed = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "Timeout") armed += 1;
    },
  });
  // The pauses' own timers are armed with the hook off.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 3));
  for (const step of steps) {
    await pause();
    hook.enable();
    try {
      await step();
    } finally {
      hook.disable();
    }
  }
  return armed;
}

describe("caches whose entries expire", () => {
  it("fly a lone flight, read after read, without arming a timer", async () => {
    const listeners = new FlightListeners("instance-a");
    const mark = (seq: number) => ({ epoch: "00000000000000000001", seq });
    const fly = (seq: number) => () => {
      const granted = listeners.ownAlone("flight:x", 1_000);
      if (granted === undefined) {
        listeners.owned(
          "flight:x",
          listeners.attempt(),
          { ...mark(seq), leaseMs: 1_000 },
          { announced: false, rival: false },
        );
      }
      listeners.landing("flight:x", { ...(granted ?? mark(seq)), from: "instance-a" }, () => "{}");
      expect(listeners.flownAlone("flight:x")).toBe(true);
      expect(listeners.inAir.find("flight:x")).toBeUndefined();
    };
    expect(await timersArmed([1, 2, 3, 4, 5, 6].map(fly))).toBe(0);
  });

  it("keep and find a read's answer without arming a timer", async () => {
    const cache = createMemoryReadCache({ maxBytes: 1 << 20, maxEntries: 100 });
    const write = (n: number) => async () => {
      const { version } = await cache.read("key-hash", "agents", `GET /v1/agents?n=${n}`);
      const entry = JSON.stringify({ version, status: 200, body: n });
      await cache.write("key-hash", "agents", `GET /v1/agents?n=${n}`, entry, version ?? "", 60);
    };
    const read = (n: number) => async () => {
      const { entry } = await cache.read("key-hash", "agents", `GET /v1/agents?n=${n}`);
      expect(entry).toBeDefined();
    };
    expect(await timersArmed([write(1), read(1), write(2), read(2), read(1)])).toBe(0);
  });
});
