import { setTimeout as sleep } from "node:timers/promises";
import { cpuMs, GATEWAY_NODE_FLAGS, spawnServer } from "./processes.ts";
import { BENCH_GATEWAY_ENV, BENCH_QUERY, benchSandbox, loadBench } from "./profiling.ts";
import { WARM_LOAD_SECONDS, warmUp } from "./warm-up.ts";

/**
 * `npm run bench:floor`: voicegraph against the fair floor on `BENCH_QUERY`'s load (by default
 * distinct resources, bench/distinct.ts) in a few minutes rather than `npm run bench`'s many: the
 * fair floor, voicegraph with every rule on (its default settings) and with `UPSTREAM_COALESCE=false`,
 * loaded in turn for BENCH_ROUNDS rounds (default 5) of BENCH_SECONDS (default 3), so the machine's
 * drift falls on all alike. Prints each round, the medians' ratios and the upstream calls per
 * operation from the sandbox's log, and each server's CPU time per request (from /proc), whose
 * ratio to the floor's is what a machine busy with other work changes least.
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const sandbox = await benchSandbox();
const env = { UPSTREAM_URL: sandbox.url, PORT: "0", LOG_LEVEL: "error", ...BENCH_GATEWAY_ENV };
const main = [...GATEWAY_NODE_FLAGS, "src/main.ts"];
const servers = {
  floor: await spawnServer(["bench/fair-floor.ts", sandbox.url]),
  voicegraph: await spawnServer(main, env),
  uncoalesced: await spawnServer(main, { ...env, UPSTREAM_COALESCE: "false" }),
};
type Name = keyof typeof servers;
const names = Object.keys(servers) as Name[];
const seen = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
  Name,
  number[]
>;
const calls = Object.fromEntries(names.map((name) => [name, [0, 0]])) as Record<Name, number[]>;
const cpu = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
  Name,
  number[]
>;
try {
  // Each warmed to a serving process's pace first (warm-up.ts), its rate printed per step.
  for (const name of names) {
    const rates = await warmUp((s) => loadBench(servers[name].url, s));
    console.log(`warm-up ${name} (${WARM_LOAD_SECONDS} s): ${rates.join(" → ")} req/s`);
  }
  for (let round = 0; round < rounds; round += 1) {
    // Each round starts one further along, so no server always follows the same one.
    const order = names.map((_, i) => names[(i + round) % names.length] as Name);
    for (const name of order) {
      sandbox.clearRequests();
      const before = cpuMs(servers[name].pid);
      const result = await loadBench(servers[name].url, seconds);
      cpu[name].push((cpuMs(servers[name].pid) - before) / result.requests);
      if (result.errors > 0) throw new Error(`${name}: ${result.errors} errors`);
      // The calls of the operations in flight when the load stopped arrive too: wait for quiet.
      for (let last = -1; last !== sandbox.requests.length; ) {
        last = sandbox.requests.length;
        await sleep(250);
      }
      seen[name].push(result.rps);
      const count = calls[name];
      count[0] = (count[0] ?? 0) + sandbox.requests.length;
      count[1] = (count[1] ?? 0) + result.sent;
    }
    console.log(`round ${round + 1}: ${names.map((n) => `${n} ${seen[n].at(-1)}`).join(", ")}`);
  }
} finally {
  await Promise.all(names.map((name) => servers[name].stop()));
  await sandbox.close();
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const floor = median(seen.floor);
const floorCpu = median(cpu.floor);
console.log(`${BENCH_QUERY}: median req/s, ratio to the fair floor, upstream calls per operation`);
for (const name of names) {
  const [made = 0, operations = 1] = calls[name];
  const ratio = (median(seen[name]) / floor).toFixed(2);
  console.log(`  ${name}: ${median(seen[name])}, ${ratio}×, ${(made / operations).toFixed(2)}`);
}
console.log("CPU time per request, median, and the floor's over it (the rate a core would give)");
for (const name of names) {
  const own = median(cpu[name]);
  console.log(`  ${name}: ${own.toFixed(3)} ms, ${(floorCpu / own).toFixed(2)}×`);
}
