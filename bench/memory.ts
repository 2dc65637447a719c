import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { distinctGraphql } from "./distinct.ts";
import { load } from "./load.ts";
import { askReport, type MemoryReport } from "./memory-signal.ts";
import { cpuMs, GATEWAY_ENV, GATEWAY_NODE_FLAGS, rssMb, spawnServer } from "./processes.ts";
import { benchSandbox } from "./profiling.ts";
import { DISTINCT } from "./queries.ts";

/**
 * `npm run bench:memory`: what holds the gateway's memory at 64 connections (64 keys, distinct
 * resources, default settings; BENCH_SECONDS, default 6): its RSS idle and at the peak, split
 * into file-backed pages (the node binary) and anonymous memory (malloc's main heap named), and
 * V8's heap by space, idle and at the end of the load, its CPU time per request and p99 latency.
 * `BENCH_FLAGS` compares V8 flag sets (`;`-separated, default `npm start`'s; `NAME=value` words
 * set the environment, over `npm start`'s, and `NAME=` unsets it; a path ending in main.ts starts
 * another checkout's gateway), each started afresh, BENCH_ROUNDS times (default 1) in turn, then
 * the medians of each.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const variants = (process.env.BENCH_FLAGS ?? GATEWAY_NODE_FLAGS.join(" ")).split(";");
// What every variant starts from: npm start's environment (a variant's own words win).
console.log(`npm start's environment: ${JSON.stringify(GATEWAY_ENV)}`);
const dir = "bench/profile";
if (!existsSync(dir)) mkdirSync(dir);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function rollup(pid: number): string {
  const lines = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").split("\n");
  const kb = (name: string) =>
    Number(/(\d+)/.exec(lines.find((l) => l.startsWith(name)) ?? "")?.[1]);
  const rss = kb("Rss:");
  const anonymous = kb("Anonymous:");
  return `${mb(rss * 1024)} MB RSS: ${mb((rss - anonymous) * 1024)} file-backed, ${mb(anonymous * 1024)} anonymous (${mb(mainArenaKb(pid) * 1024)} of it malloc's main heap)`;
}
/** The resident part of malloc's main arena, the `[heap]` mapping that brk grows (kB). */
function mainArenaKb(pid: number): number {
  const smaps = readFileSync(`/proc/${pid}/smaps`, "utf8");
  const heap = smaps.slice(smaps.indexOf("[heap]"));
  return smaps.includes("[heap]") ? Number(/\nRss:\s+(\d+)/.exec(heap)?.[1] ?? 0) : 0;
}
function heap(r: MemoryReport): string {
  const spaces = Object.entries(r.spaces)
    .filter(([, s]) => s.size > 512 * 1024)
    .map(([name, s]) => `${name} ${mb(s.size)} (${mb(s.used)} used)`)
    .join(", ");
  const { heapTotal, heapUsed, external, arrayBuffers } = r.usage;
  return `heap ${mb(heapTotal)} MB (${mb(heapUsed)} used): ${spaces}; external ${mb(external)}, array buffers ${mb(arrayBuffers)}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const out = `${dir}/memory.json`;
/** A variant's gateway: its flags, its `NAME=value` environment, its main.ts. */
function startVariant(flags: string, upstream: string) {
  const words = flags.split(" ").filter(Boolean);
  // `NAME=value` words of a variant are its environment (e.g. MALLOC_ARENA_MAX=2).
  const variables = Object.fromEntries(
    words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split(/=(.*)/, 2)),
  );
  // A word ending in main.ts is the gateway to start: another checkout's, for a before/after.
  const main = words.find((word) => word.endsWith("main.ts")) ?? "src/main.ts";
  return spawnServer(
    [...words.filter((word) => word.startsWith("-")), "bench/memory-report.ts", main],
    { UPSTREAM_URL: upstream, PORT: "0", LOG_LEVEL: "error", MEMORY_OUT: out, ...variables },
  );
}

const sandbox = await benchSandbox();
const figures = new Map(
  variants.map((flags) => [
    flags,
    {
      peaks: [] as number[],
      cpu: [] as number[],
      p99: [] as number[],
      rps: [] as number[],
      delay: [] as number[],
    },
  ]),
);
try {
  // V8's flags key the compile cache: a variant's first start would strip types and compile,
  // a start-up no later start has. One start each fills its cache before anything is measured.
  for (const flags of variants) await (await startVariant(flags, sandbox.url)).stop();
  for (let round = 0; round < rounds; round++) {
    for (const flags of variants) {
      const gateway = await startVariant(flags, sandbox.url);
      try {
        await load({
          url: gateway.url,
          connections: 4,
          seconds: 1,
          perConnection: distinctGraphql(DISTINCT),
        });
        await sleep(1000);
        // The warm-up's report also starts the event loop's delay afresh for the load.
        const idle = `${rollup(gateway.pid)}; ${heap(await askReport(gateway.pid, out))}`;
        const cpuBefore = cpuMs(gateway.pid);
        const loaded = load({
          url: gateway.url,
          connections: 64,
          seconds,
          perConnection: distinctGraphql(DISTINCT),
        });
        await sleep(seconds * 1000 - 500);
        const underLoad = await askReport(gateway.pid, out);
        const busy = `${rollup(gateway.pid)}; ${heap(underLoad)}`;
        const { eventLoopDelay } = underLoad;
        const result = await loaded;
        const cpu = (cpuMs(gateway.pid) - cpuBefore) / result.requests;
        figures.get(flags)?.peaks.push(rssMb(gateway.pid, "VmHWM"));
        figures.get(flags)?.cpu.push(cpu);
        figures.get(flags)?.p99.push(result.p99);
        figures.get(flags)?.rps.push(result.rps);
        figures.get(flags)?.delay.push(eventLoopDelay.p99);
        console.log(
          `[${flags || "no flags"}] peak RSS ${rssMb(gateway.pid, "VmHWM")} MB at ${result.rps} req/s, CPU ${cpu.toFixed(3)} ms per request, p99 ${result.p99} ms, event-loop delay p99 ${eventLoopDelay.p99.toFixed(1)} ms (max ${eventLoopDelay.max.toFixed(1)}) (${result.errors} errors)`,
        );
        console.log(`  idle (after warm-up): ${idle}`);
        console.log(`  under load:           ${busy}`);
      } finally {
        await gateway.stop();
      }
    }
  }
  console.log(
    `medians of ${rounds} rounds (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}):`,
  );
  for (const [flags, { peaks, cpu, p99, rps, delay }] of figures) {
    console.log(
      `  [${flags || "no flags"}] peak RSS ${median(peaks).toFixed(1)} MB (${Math.min(...peaks)}–${Math.max(...peaks)}), ${median(rps)} req/s, CPU ${median(cpu).toFixed(3)} ms per request, p99 ${median(p99)} ms, event-loop delay p99 ${median(delay).toFixed(1)} ms`,
    );
  }
} finally {
  await sandbox.close();
}
