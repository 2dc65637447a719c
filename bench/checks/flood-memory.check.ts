import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLOODS, inWaves } from "../../test/gateway/floods.ts";
import { type Harness, startHarness } from "../../test/gateway/harness.ts";
import { TRANSPORTS } from "../../test/gateway/transports.ts";

/**
 * What a keyless flood leaves in memory, over each transport: the gateway runs in this process,
 * so a full collection tells what it kept from what it dropped. A figure of the collector, so
 * the bench's (a busy machine's late collections move it), not `npm test`'s.
 */
const FLOOD = 400;
/** RSS growth allowed over one flood. */
const FLOOD_RSS_BYTES = 64 * 1024 * 1024;
/** Heap kept once the flood is over and collected: what the gateway holds on to. */
const FLOOD_KEPT_HEAP_BYTES = 8 * 1024 * 1024;

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

describe.each(TRANSPORTS.map((transport) => [transport.name, transport] as const))(
  "a keyless flood over %s",
  (name) => {
    let harness: Harness;
    beforeAll(async () => {
      harness = await startHarness({
        sandbox: { callDurationMs: 60_000 },
        listen: { maxConnections: 40 },
      });
    });
    afterAll(() => harness.close());

    it("keeps RSS growth and the heap it leaves within their bounds", async () => {
      const flood = FLOODS[name];
      // Warm, so the measure is of what the flood keeps, not of the first request's code.
      await inWaves(100, 25, (index) => flood(harness, index));
      collect();
      const before = process.memoryUsage();
      await inWaves(FLOOD, 25, (index) => flood(harness, index));
      const grown = process.memoryUsage().rss - before.rss;
      collect();
      const kept = process.memoryUsage().heapUsed - before.heapUsed;
      const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
      console.info(
        `${name}: ${FLOOD} keyless requests, RSS +${mb(grown)} MB, heap kept ${mb(kept)} MB`,
      );
      expect(grown).toBeLessThan(FLOOD_RSS_BYTES);
      expect(kept).toBeLessThan(FLOOD_KEPT_HEAP_BYTES);
    });
  },
);
