import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { GATEWAY_NODE_FLAGS, spawnServer } from "./processes.ts";
import {
  BENCH_GATEWAY_ENV,
  benchSandbox,
  type CallFrame,
  frameName,
  loadBench,
  topShares,
} from "./profiling.ts";

/**
 * `npm run bench:allocations`: what voicegraph allocates per single-resource request under 16
 * connections (bytes per request, and the top allocating functions, self and inclusive). The
 * allocation rate is what drives garbage collection and the heap's growth (README: Benchmarks).
 * `BENCH_SURVIVORS=1` counts only what outlives the young generation's collections.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SAMPLE_MS = 3000;
const dir = "bench/profile";
if (!existsSync(dir)) mkdirSync(dir);
const out = `${dir}/allocations.heapprofile`;
const sandbox = await benchSandbox();
const gateway = await spawnServer(
  [...GATEWAY_NODE_FLAGS, "bench/sample-allocations.ts", "src/main.ts"],
  {
    UPSTREAM_URL: sandbox.url,
    PORT: "0",
    LOG_LEVEL: "error",
    PROFILE_AFTER_MS: "2500",
    PROFILE_FOR_MS: String(SAMPLE_MS),
    PROFILE_OUT: out,
    PROFILE_SURVIVORS: process.env.BENCH_SURVIVORS === "1" ? "1" : "0",
    ...BENCH_GATEWAY_ENV,
  },
);
let requestsInWindow = 0;
try {
  sandbox.clearRequests();
  const started = performance.now();
  const result = await loadBench(gateway.url, SECONDS);
  // The run is steady after its first second: the window's share of the requests is its share of the time.
  const elapsed = performance.now() - started;
  requestsInWindow = (result.requests * SAMPLE_MS) / elapsed;
  await sleep(500);
} finally {
  await gateway.stop();
  await sandbox.close();
}

interface Frame {
  callFrame: CallFrame;
  selfSize: number;
  children: Frame[];
}
const { head } = JSON.parse(readFileSync(out, "utf8")) as { head: Frame };
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
/** Sums a subtree; a function counts once per stack for its inclusive bytes (recursion). */
function walk(node: Frame, onStack: Set<string>): number {
  const key = frameName(node.callFrame);
  self.set(key, (self.get(key) ?? 0) + node.selfSize);
  const first = !onStack.has(key);
  if (first) onStack.add(key);
  let bytes = node.selfSize;
  for (const child of node.children) bytes += walk(child, onStack);
  if (first) {
    onStack.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + bytes);
  }
  return bytes;
}
const total = walk(head, new Set());
// V8's own nodes ((root), (garbage collector)…) hold no allocation of a function of ours or a package's.
const top = (map: Map<string, number>, n: number) =>
  topShares(new Map([...map].filter(([key]) => !key.startsWith("("))), total, n);
console.log(
  `${(total / 1e6).toFixed(1)} MB allocated in ${SAMPLE_MS / 1000} s, about ${Math.round(requestsInWindow)} requests: ` +
    `${(total / 1024 / Math.max(1, requestsInWindow)).toFixed(1)} kB per request` +
    (process.env.BENCH_SURVIVORS === "1" ? " outlived the young generation" : ""),
);
console.log(`\nTop self bytes by function:\n${top(self, 25).join("\n")}`);
console.log(`\nTop inclusive bytes by function:\n${top(inclusive, 25).join("\n")}`);
