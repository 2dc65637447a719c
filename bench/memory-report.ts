import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";

/**
 * Loaded before the gateway (`node bench/memory-report.ts src/main.ts`, by bench/memory.ts): on
 * SIGUSR2 it writes `MEMORY_OUT` with the process's memory as V8 and Node see it (each heap
 * space's size and use, external and array buffers), so the bench can say what holds its RSS,
 * and the event loop's delay since the last report (p99 and max, ms): what a flag that pauses
 * the loop (a compiler on the main thread, a collection) costs the requests waiting on it.
 * With `MEMORY_GC=1` (and node's `--expose-gc`) it first collects, so what it reports, and the
 * RSS read from /proc just after, is what is still held rather than what awaits a collection;
 * the pause falls in the next report's delay, not this one's.
 */
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
await import(new URL(process.argv[2] as string, `file://${process.cwd()}/`).href);
const collect = process.env.MEMORY_GC === "1" ? globalThis.gc : undefined;
process.on("SIGUSR2", () => {
  collect?.();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((space) => [
      space.space_name,
      { size: space.space_size, used: space.space_used_size },
    ]),
  );
  writeFileSync(
    process.env.MEMORY_OUT as string,
    JSON.stringify({
      usage: process.memoryUsage(),
      spaces,
      eventLoopDelay: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
    }),
  );
  delay.reset();
});
