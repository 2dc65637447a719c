import { cpuMs, GATEWAY_NODE_FLAGS, ONE_KEY_BOUNDS, spawnServer } from "./processes.ts";
import { benchSandbox, loadBench } from "./profiling.ts";
import { warmUp } from "./warm-up.ts";

/**
 * `npm run bench:pair -- <other checkout>`: before/after figures for one change. Starts this
 * checkout's gateway and another checkout's (e.g. a `git worktree` at the commit before the
 * change) side by side over one sandbox, and loads each in turn with `BENCH_QUERY`'s load
 * (bench/profiling.ts; by default distinct resources, bench/distinct.ts), alternating BENCH_ROUNDS
 * times (default 5) for BENCH_SECONDS each (default 3), so the machine's drift falls on both
 * alike. Prints each round and the medians' ratio, of the rates and of the gateways' CPU time per
 * request (from /proc: on a machine busy with other work, the steadier of the two). BENCH_QUERY=dashboard loads the dashboard
 * (bench/queries.ts) over the sandbox at no latency: its CPU cost.
 */
const other = process.argv[2];
if (!other) throw new Error("usage: npm run bench:pair -- <path of the other checkout>");
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const sandbox = await benchSandbox();
const env = {
  UPSTREAM_URL: sandbox.url,
  PORT: "0",
  LOG_LEVEL: "error",
  ...ONE_KEY_BOUNDS,
};
const gateways = {
  this: await spawnServer([...GATEWAY_NODE_FLAGS, "src/main.ts"], env),
  other: await spawnServer([...GATEWAY_NODE_FLAGS, `${other}/src/main.ts`], env),
};
const seen: Record<keyof typeof gateways, number[]> = { this: [], other: [] };
const cpuPerRequest: Record<keyof typeof gateways, number[]> = { this: [], other: [] };
try {
  for (const gateway of Object.values(gateways)) await warmUp((s) => loadBench(gateway.url, s));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? (["this", "other"] as const) : (["other", "this"] as const);
    for (const name of order) {
      const before = cpuMs(gateways[name].pid);
      const result = await loadBench(gateways[name].url, seconds);
      if (result.errors > 0) throw new Error(`${name}: ${result.errors} errors`);
      seen[name].push(result.rps);
      cpuPerRequest[name].push((cpuMs(gateways[name].pid) - before) / result.requests);
    }
    const cpu = (name: keyof typeof gateways) =>
      `${(cpuPerRequest[name].at(-1) ?? 0).toFixed(3)} ms`;
    console.log(
      `round ${round + 1}: this ${seen.this.at(-1)} req/s (CPU ${cpu("this")}/req), other ${seen.other.at(-1)} (${cpu("other")})`,
    );
  }
} finally {
  await Promise.all(Object.values(gateways).map((gateway) => gateway.stop()));
  await sandbox.close();
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const [mine, theirs] = [median(seen.this), median(seen.other)];
console.log(`median: this ${mine}, other ${theirs}: ${(mine / theirs).toFixed(3)}×`);
const [myCpu, theirCpu] = [median(cpuPerRequest.this), median(cpuPerRequest.other)];
console.log(
  `CPU per request, median: this ${myCpu.toFixed(3)} ms, other ${theirCpu.toFixed(3)} ms: ${(myCpu / theirCpu).toFixed(3)}× (below 1: cheaper)`,
);
