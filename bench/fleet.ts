import { readFileSync, writeFileSync } from "node:fs";
import { Redis } from "ioredis";
import {
  type BenchResults,
  benchmarksPage,
  type FleetRow,
  PAGE,
  RESULTS,
} from "../scripts/benchmarks-doc.ts";
import { FLIGHT_FALLBACKS, type FlightOutcome } from "../src/fleet/flights.ts";
import { DEMO_KEYS, extraOrganizationKey } from "../src/sandbox/seed-data.ts";
import { startSandbox } from "../src/sandbox/server.ts";
import { startRedisCluster } from "../test/support/redis-cluster.ts";
import { listenerPid, startRedisServer } from "../test/support/redis-server.ts";
import { cpuMs, GATEWAY_NODE_FLAGS, ONE_KEY_BOUNDS, spawnServer } from "./processes.ts";
import { DASHBOARD } from "./queries.ts";

/**
 * Fleet flights (docs/fleet.md): 48 connections ask a dashboard against an upstream 20 ms away,
 * spread over 1, 3, 6 and 10 gateways on one Redis and 1 and 3 on a three-master cluster, with
 * one key and again with 12, fleet flights off and on (two fleets up at once, and one gateway
 * with flights on beside them, taking the load in turns: measureFleets). Per load: upstream
 * calls per operation against that one gateway's, Redis commands per operation (INFO
 * commandstats, every master), how the reads flew (owned, joined, raced, fallbacks), the
 * gateways' and Redis's CPU per operation, and the p50/p99 added against the same fleet with
 * flights off. Each gateway is `npm start` in a process of its own (the load and the sandbox
 * in this one).
 *
 * Each load runs twice: closed (each connection asks again once answered: as many operations
 * as the fleet can serve, which on 2 shared cores is fewer for ten processes than for one), and
 * paced (operations start at a fixed rate every fleet size serves, at most 48 at once): the same
 * load for every fleet, so its calls per operation compare fleets and its latency is the
 * flights' rather than the machine's. About 20 minutes; `npm run bench:fleet` prints the table and
 * writes it into bench/results.json's `fleet` (and docs/benchmarks.md).
 */

const CONNECTIONS = 48;
const METRICS_TOKEN = "a-bench-fleet-metrics-token";
const LATENCY_MS = 20;
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 4);
/** How long each fleet runs the load unmeasured first. */
const WARM_MS = 2_000;
/** The paced load's operations per second: below what ten gateways serve on 2 shared cores. */
const RATE = Number(process.env.BENCH_FLEET_RATE ?? 100);
/**
 * BENCH_FLEET_ONLY narrows a run to some loads, as `server:1,3,10;cluster:1,3` (with
 * BENCH_FLEET_KEYS, as `1`; BENCH_FLEET_SOLO_ONLY=1 times one client alone and nothing else):
 * printed, not written, since it is not the whole table.
 */
const ONLY = process.env.BENCH_FLEET_ONLY;
const LOADS: ReadonlyArray<{ store: "server" | "cluster"; sizes: readonly number[] }> = ONLY
  ? ONLY.split(";").map((part) => {
      const [store, sizes = ""] = part.split(":");
      if (store !== "server" && store !== "cluster") throw new Error(`BENCH_FLEET_ONLY: ${part}`);
      return { store, sizes: sizes.split(",").map(Number) };
    })
  : [
      { store: "server", sizes: [1, 3, 6, 10] },
      { store: "cluster", sizes: [1, 3] },
    ];
const KEY_COUNTS = (process.env.BENCH_FLEET_KEYS ?? "1,12").split(",").map(Number);
/** The dashboard of any organization: the 12-key load cannot name one organization's agent. */
const ANY_DASHBOARD = `{
  organization { name timezone }
  conversations(first: 50) { nodes { id status agent { id name } contact { id stats } } }
  campaigns(first: 10) { nodes { id name status } }
}`;

interface Store {
  connection: { url: string } | { clusterNodes: Array<{ host: string; port: number }> };
  urls: string[];
  pids: number[];
  close(): Promise<void>;
}

async function startStore(form: "server" | "cluster"): Promise<Store> {
  if (form === "server") {
    const server = await startRedisServer();
    return {
      connection: { url: server.url },
      urls: [server.url],
      pids: [(await listenerPid(server.port)) as number],
      close: () => server.close(),
    };
  }
  const cluster = await startRedisCluster(3);
  return {
    connection: {
      clusterNodes: cluster.masters.map((master) => ({ host: "127.0.0.1", port: master.port })),
    },
    urls: cluster.masters.map((master) => master.url),
    pids: await Promise.all(
      cluster.masters.map(async (master) => (await listenerPid(master.port)) as number),
    ),
    close: () => cluster.close(),
  };
}

/** Every command every server has run (INFO commandstats), summed. */
async function commandsRun(store: Store): Promise<number> {
  let total = 0;
  for (const url of store.urls) {
    const probe = new Redis(url);
    const stats = String(await probe.info("commandstats"));
    probe.disconnect();
    for (const match of stats.matchAll(/calls=(\d+)/g)) total += Number(match[1]);
  }
  return total;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The latency of the operations one fleet answered, and how many there were. */
interface Timed {
  p50: number;
  p99: number;
  operations: number;
}

/** `times`' median, p99 and count (sorted in place). */
function timed(times: number[]): Timed {
  const sorted = times.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), operations: sorted.length };
}

/** The turns `count` fleets take the load in: there and back (ABBA, ABCCBA), so none goes first. */
function turnsOf(count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  return [...order, ...[...order].reverse()];
}

interface Measured extends Timed {
  callsPerOp: number;
  redisPerOp: number;
  fallbacks: Record<string, number>;
  /** The fleet's reads by how they flew (owned, joined, raced, a fallback), per operation. */
  flightsPerOp: Record<string, number>;
  /** CPU ms per operation: the fleet's gateways, and Redis (every master). */
  cpu: { gateways: number; redis: number };
}

/**
 * Each of `connections` asks again once answered (the closed load: CONNECTIONS; one alone times
 * what flights add to an idle fleet), or operations start at `rate`.
 */
type Pace = { connections: number } | { rate: number };

/** One fleet of `npm start` gateways over the store, with fleet flights on or off. */
interface Fleet {
  send(gateway: number, key: string): Promise<string>;
  /** How the fleet's reads flew so far, by outcome (voicegraph_fleet_flights_total, summed). */
  outcomes(): Promise<Record<string, number>>;
  pids: number[];
  stop(): Promise<void>;
}

async function startFleet(
  store: Store,
  sandboxUrl: string,
  load: { size: number; keys: string[]; flights: boolean; tag: string },
): Promise<Fleet> {
  // Each gateway is `npm start` in a process of its own, as a fleet runs: one event loop for
  // ten gateways, the sandbox and the load would time Redis's answers out by itself.
  const storeEnv: Record<string, string> =
    "url" in store.connection
      ? { REDIS_URL: store.connection.url }
      : {
          REDIS_CLUSTER_NODES: store.connection.clusterNodes
            .map((node) => `${node.host}:${node.port}`)
            .join(","),
        };
  const children = await Promise.all(
    Array.from({ length: load.size }, () =>
      spawnServer([...GATEWAY_NODE_FLAGS, "src/main.ts"], {
        ...ONE_KEY_BOUNDS,
        ...storeEnv,
        UPSTREAM_URL: sandboxUrl,
        PORT: "0",
        LOG_LEVEL: "error",
        REDIS_PREFIX: `${load.tag}:`,
        CURSOR_SECRET: "a-bench-fleet-cursor-secret-of-32-characters",
        METRICS_TOKEN,
        UPSTREAM_FLEET_FLIGHTS: String(load.flights),
      }),
    ),
  );
  const shared = async (url: string) =>
    ((await (await fetch(`${url}/readyz`)).json()) as { redis?: string }).redis === "shared";
  const upBy = performance.now() + 30_000;
  while (!(await Promise.all(children.map((child) => shared(child.url)))).every(Boolean)) {
    if (performance.now() > upBy) throw new Error("bench:fleet: a gateway never shared Redis");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const body = JSON.stringify({ query: load.keys.length === 1 ? DASHBOARD : ANY_DASHBOARD });
  const fleet: Fleet = {
    pids: children.map((child) => child.pid),
    send: (gateway, key) =>
      fetch(`${children[gateway % load.size]?.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body,
      }).then((response) => response.text()),
    async outcomes() {
      const out: Record<string, number> = {};
      for (const child of children) {
        const text = await (
          await fetch(`${child.url}/metrics`, {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          })
        ).text();
        for (const [, outcome, count] of text.matchAll(
          /^voicegraph_fleet_flights_total\{outcome="(\w+)"\} (\d+)$/gm,
        )) {
          out[outcome as string] = (out[outcome as string] ?? 0) + Number(count);
        }
      }
      return out;
    },
    stop: async () => {
      await Promise.all(children.map((child) => child.stop()));
    },
  };
  // Every key proves itself on every gateway first, and the flights channel is heard.
  for (let i = 0; i < load.size; i++) for (const key of load.keys) await fleet.send(i, key);
  return fleet;
}

/** The load `pace` on `fleet` until `until`, each operation's time pushed on `times`. */
async function runLoad(
  fleet: Fleet,
  keys: string[],
  pace: Pace,
  until: number,
  times: number[],
): Promise<void> {
  if ("connections" in pace) {
    await Promise.all(
      Array.from({ length: pace.connections }, async (_, connection) => {
        const key = keys[connection % keys.length] as string;
        while (performance.now() < until) {
          const started = performance.now();
          await fleet.send(connection, key);
          times.push(performance.now() - started);
        }
      }),
    );
  } else {
    await paced(pace.rate, until, times, (i) => fleet.send(i, keys[i % keys.length] as string));
  }
}

/** Each fleet's measured time is cut in this many slices, taken in turn: off, on, one, one, … */
const SLICES = 4;

/** One fleet of those measured together: its size, flights off or on. */
interface FleetSpec {
  size: number;
  flights: boolean;
}

/**
 * The same load on several fleets: flights off and on for one size, and (against it) one
 * gateway with flights on. All are up at once and take the load in turns (ABBA, or ABCCBA, in
 * SLICES slices each), so that what the shared machine does meanwhile falls on all alike and
 * a ratio between them holds for one spell of it; the idle ones wait. Each is first warmed,
 * unmeasured, under the load to be measured: its code runs hot (a gateway of ten would else
 * meet most of a short load's operations unoptimized) and it has heard the fleet's flights as
 * that load flies them.
 */
async function measureFleets(
  store: Store,
  sandboxUrl: string,
  requests: () => number,
  load: { keys: string[]; tag: string; pace: Pace },
  specs: readonly FleetSpec[],
): Promise<Measured[]> {
  return withFleets(store, sandboxUrl, load, specs, async (fleets) => {
    const totals = fleets.map(() => ({
      times: [] as number[],
      calls: 0,
      commands: 0,
      cpu: { gateways: 0, redis: 0 },
      flights: {} as Record<string, number>,
    }));
    const cpuNow = (fleet: Fleet) => ({
      gateways: fleet.pids.reduce((ms, pid) => ms + cpuMs(pid), 0),
      redis: store.pids.reduce((ms, pid) => ms + cpuMs(pid), 0),
    });
    const turn = turnsOf(fleets.length);
    for (let slice = 0; slice < fleets.length * SLICES; slice++) {
      const which = turn[slice % turn.length] as number;
      const fleet = fleets[which] as Fleet;
      const total = totals[which] as (typeof totals)[number];
      const callsBefore = requests();
      const commandsBefore = await commandsRun(store);
      // Scraped before the CPU is read, so the gateways' CPU holds no work of the scrape's.
      const flightsBefore = await fleet.outcomes();
      const cpuBefore = cpuNow(fleet);
      const until = performance.now() + (SECONDS * 1000) / SLICES;
      await runLoad(fleet, load.keys, load.pace, until, total.times);
      const cpuAfter = cpuNow(fleet);
      for (const [outcome, count] of Object.entries(await fleet.outcomes())) {
        total.flights[outcome] =
          (total.flights[outcome] ?? 0) + count - (flightsBefore[outcome] ?? 0);
      }
      total.cpu.gateways += cpuAfter.gateways - cpuBefore.gateways;
      total.cpu.redis += cpuAfter.redis - cpuBefore.redis;
      total.calls += requests() - callsBefore;
      total.commands += (await commandsRun(store)) - commandsBefore;
    }
    return totals.map((total) => {
      const { times } = total;
      return {
        ...timed(times),
        callsPerOp: total.calls / times.length,
        redisPerOp: total.commands / times.length,
        // Counted over the measured slices alone, as every other figure of the row is.
        fallbacks: Object.fromEntries(
          Object.entries(total.flights).filter(
            ([outcome, count]) => FLIGHT_FALLBACKS.includes(outcome as FlightOutcome) && count > 0,
          ),
        ),
        flightsPerOp: Object.fromEntries(
          Object.entries(total.flights).map(([outcome, count]) => [
            outcome,
            Math.round((count / times.length) * 1000) / 1000,
          ]),
        ),
        cpu: {
          gateways: total.cpu.gateways / times.length,
          redis: total.cpu.redis / times.length,
        },
      };
    });
  });
}

/**
 * `specs`' fleets up at once over the store, each warmed, unmeasured, under `load` (its code
 * runs hot, and it has heard the fleet's flights as that load flies them), for `measure`.
 */
async function withFleets<T>(
  store: Store,
  sandboxUrl: string,
  load: { keys: string[]; tag: string; pace: Pace },
  specs: readonly FleetSpec[],
  measure: (fleets: Fleet[]) => Promise<T>,
): Promise<T> {
  const fleets = await Promise.all(
    specs.map(({ size, flights }) =>
      startFleet(store, sandboxUrl, {
        ...load,
        size,
        flights,
        tag: `${load.tag}:${size}:${flights}`,
      }),
    ),
  );
  try {
    // A cluster's subscriber finds its node a while after the commands' link is up.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const fleet of fleets) {
      await runLoad(fleet, load.keys, load.pace, performance.now() + WARM_MS, []);
    }
    return await measure(fleets);
  } finally {
    await Promise.all(fleets.map((fleet) => fleet.stop()));
  }
}

/**
 * One client alone, asking again once answered, sent to flights off and on by turns of one
 * operation (off, on, on, off, …) for as long as both fleets' slices would take: the two
 * medians it compares differ by under a millisecond, so no spell of the machine may fall on
 * one side alone. In 1 s slices, an A/A run (flights off on both sides) moved the difference
 * by up to 0.8 ms by itself.
 */
async function measureAlone(
  store: Store,
  sandboxUrl: string,
  load: { keys: string[]; tag: string },
  specs: readonly [FleetSpec, FleetSpec],
): Promise<[Timed, Timed]> {
  const pace = { connections: 1 };
  return withFleets(store, sandboxUrl, { ...load, pace }, specs, async (fleets) => {
    const times: [number[], number[]] = [[], []];
    const key = load.keys[0] as string;
    const turn = turnsOf(2);
    const until = performance.now() + 2 * SECONDS * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const which = turn[i % turn.length] as 0 | 1;
      const started = performance.now();
      await (fleets[which] as Fleet).send(0, key);
      times[which].push(performance.now() - started);
    }
    return [timed(times[0]), timed(times[1])];
  });
}

/**
 * Operation i starts at i / rate seconds, timed from its scheduled start (a late start is the
 * load's wait, not hidden), unless CONNECTIONS are already out: then it is skipped, and counted.
 */
async function paced(
  rate: number,
  until: number,
  times: number[],
  send: (i: number) => Promise<unknown>,
): Promise<void> {
  const begun = performance.now();
  const out = new Set<Promise<unknown>>();
  let skipped = 0;
  for (let i = 0; ; i++) {
    const at = begun + (i * 1000) / rate;
    if (at >= until) break;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (out.size >= CONNECTIONS) {
      skipped += 1;
      continue;
    }
    const one: Promise<unknown> = send(i).then(() => {
      times.push(performance.now() - at);
      out.delete(one);
    });
    out.add(one);
  }
  await Promise.all(out);
  if (skipped > 0) console.error(`bench:fleet: ${skipped} paced operations skipped (48 out)`);
}

const sandbox = await startSandbox({
  port: 0,
  rateLimit: 1e9,
  latencyMs: LATENCY_MS,
  extraOrganizations: 12,
});
const rows: FleetRow[] = [];
try {
  for (const { store: form, sizes } of LOADS) {
    const store = await startStore(form);
    try {
      for (const keyCount of KEY_COUNTS) {
        const keys =
          keyCount === 1
            ? [DEMO_KEYS.acme]
            : Array.from({ length: keyCount }, (_, i) => extraOrganizationKey(i + 1));
        for (const size of sizes) {
          const tag = `bench:${form}:${keyCount}:${size}`;
          // Flights off and on, and one gateway with flights on in the same turns, the ratio's
          // other side (unless this is one gateway).
          const measure = (pace: Pace) =>
            measureFleets(
              store,
              sandbox.url,
              () => sandbox.requests.length,
              { keys, pace, tag: `${tag}:${"rate" in pace ? pace.rate : pace.connections}` },
              [
                { size, flights: false },
                { size, flights: true },
                ...(size > 1 ? [{ size: 1, flights: true }] : []),
              ],
            );
          const [soloOff, soloOn] = await measureAlone(
            store,
            sandbox.url,
            { keys, tag: `${tag}:alone` },
            [
              { size, flights: false },
              { size, flights: true },
            ],
          );
          if (process.env.BENCH_FLEET_SOLO_ONLY) {
            console.log(
              `${form} ${size} gateways, ${keyCount} keys: p50 ${soloOff.p50} → ${soloOn.p50} ms`,
            );
            continue;
          }
          const [off, on, one = on] = (await measure({ connections: CONNECTIONS })) as [
            Measured,
            Measured,
            Measured?,
          ];
          const [pacedOff, pacedOn, onePaced = pacedOn] = (await measure({ rate: RATE })) as [
            Measured,
            Measured,
            Measured?,
          ];
          const round3 = (n: number) => Math.round(n * 1000) / 1000;
          rows.push({
            store: form,
            gateways: size,
            keys: keyCount,
            callsPerOpOff: round3(off.callsPerOp),
            callsPerOpOn: round3(on.callsPerOp),
            callsPerOpOne: round3(one.callsPerOp),
            vsOneGateway: round3(on.callsPerOp / one.callsPerOp),
            redisPerOpOn: round3(on.redisPerOp),
            p50Added: round3(on.p50 - off.p50),
            p99Added: round3(on.p99 - off.p99),
            operations: on.operations,
            fallbacks: on.fallbacks,
            flightsPerOp: on.flightsPerOp,
            throughputOff: round3(off.operations / SECONDS),
            throughputOn: round3(on.operations / SECONDS),
            cpuMsPerOp: {
              gatewaysOff: round3(off.cpu.gateways),
              gatewaysOn: round3(on.cpu.gateways),
              redisOff: round3(off.cpu.redis),
              redisOn: round3(on.cpu.redis),
            },
            paced: {
              rate: RATE,
              callsPerOpOff: round3(pacedOff.callsPerOp),
              callsPerOpOn: round3(pacedOn.callsPerOp),
              callsPerOpOne: round3(onePaced.callsPerOp),
              vsOneGateway: round3(pacedOn.callsPerOp / onePaced.callsPerOp),
              redisPerOpOn: round3(pacedOn.redisPerOp),
              p50Off: round3(pacedOff.p50),
              p50On: round3(pacedOn.p50),
              p50Added: round3(pacedOn.p50 - pacedOff.p50),
              p99Added: round3(pacedOn.p99 - pacedOff.p99),
              operations: pacedOn.operations,
              fallbacks: pacedOn.fallbacks,
              flightsPerOp: pacedOn.flightsPerOp,
            },
            solo: {
              p50Off: round3(soloOff.p50),
              p50On: round3(soloOn.p50),
              p50Added: round3(soloOn.p50 - soloOff.p50),
              p99Added: round3(soloOn.p99 - soloOff.p99),
              operations: soloOn.operations,
            },
          });
          sandbox.clearRequests();
        }
      }
    } finally {
      await store.close();
    }
  }
} finally {
  await sandbox.close();
}
console.log(
  "| store | gateways | keys | calls/op off | calls/op on | 1 gateway beside | on vs 1 gateway | Redis cmds/op | p50 added ms | p99 added ms | ops/s off → on | gateway CPU ms/op off → on | fallbacks |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
for (const row of rows) {
  const p = row.paced;
  const cpu = row.cpuMsPerOp;
  console.log(
    `| ${row.store} | ${row.gateways} | ${row.keys} | ${row.callsPerOpOff} | ${row.callsPerOpOn} | ${row.callsPerOpOne} | ${row.vsOneGateway}× | ${row.redisPerOpOn} | ${row.p50Added} | ${row.p99Added} | ${row.throughputOff} → ${row.throughputOn} | ${cpu?.gatewaysOff} → ${cpu?.gatewaysOn} | ${JSON.stringify(row.fallbacks)} ${JSON.stringify(row.flightsPerOp)} |`,
  );
  if (p) {
    console.log(
      `| paced ${p.rate}/s | | | ${p.callsPerOpOff} | ${p.callsPerOpOn} | ${p.callsPerOpOne} | ${p.vsOneGateway}× | ${p.redisPerOpOn} | ${p.p50Added} (${p.p50Off} → ${p.p50On}) | ${p.p99Added} | | | ${JSON.stringify(p.fallbacks)} ${JSON.stringify(p.flightsPerOp)} |`,
    );
  }
  const o = row.solo;
  if (o) {
    console.log(
      `| one client | | | | | | | | ${o.p50Added} (${o.p50Off} → ${o.p50On}) | ${o.p99Added} | ${o.operations / SECONDS} | | |`,
    );
  }
}
const narrowed = [ONLY, process.env.BENCH_FLEET_KEYS, process.env.BENCH_FLEET_SOLO_ONLY];
if (narrowed.some((value) => value !== undefined)) process.exit(0);
const results = JSON.parse(readFileSync(RESULTS, "utf8")) as BenchResults;
const written: BenchResults = {
  ...results,
  fleet: { date: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, rows },
};
writeFileSync(RESULTS, `${JSON.stringify(written, null, 2)}\n`);
writeFileSync(PAGE, benchmarksPage(written));
// The fetch pool's idle sockets and the stores' children would keep the process a while.
process.exit(0);
