import { writeFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";

/**
 * Loaded before the gateway (`node bench/memory-report.ts src/main.ts`, by bench/memory.ts): on
 * SIGUSR2 it writes `MEMORY_OUT` with the process's memory as V8 and Node see it (each heap
 * space's size and use, external and array buffers), so the bench can say what holds its RSS.
 */
await import(new URL(process.argv[2] as string, `file://${process.cwd()}/`).href);
process.on("SIGUSR2", () => {
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((space) => [
      space.space_name,
      { size: space.space_size, used: space.space_used_size },
    ]),
  );
  writeFileSync(
    process.env.MEMORY_OUT as string,
    JSON.stringify({ usage: process.memoryUsage(), spaces }),
  );
});
