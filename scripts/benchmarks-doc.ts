import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * docs/benchmarks.md, printed from bench/results.json, which `npm run bench` writes: the
 * targets, the last run and how to reproduce it. Nothing in it is typed by hand but the prose
 * below; test/docs/benchmarks-doc.test.ts fails when the page drifts from the figures. What
 * each round of profiling learned is bench/profile.md's.
 */
export const RESULTS = fileURLToPath(new URL("../bench/results.json", import.meta.url));
export const PAGE = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));

/** One row of the bench: what bench/run.ts measures and records. */
export interface BenchRow {
  scenario: string;
  /** The median of the rounds (a single run: that run). */
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50: number;
  p99: number;
  upstreamPerOp: number;
  peakRssMb: number | null;
  errors: number;
}

interface CapacityStep {
  liveQueries: number;
  rssMb: number;
  rssKbPerLiveQuery: number;
  slopeKbPerLiveQuery: number;
  heapKbPerLiveQuery: number;
  upstreamCallsPerInterval: number;
  eventLoopDelayP99Ms: number;
}

/** One load of bench/fleet.ts: a fleet's gateways on one store, with fleet flights off and on. */
export interface FleetRow {
  store: "server" | "cluster";
  gateways: number;
  keys: number;
  callsPerOpOff: number;
  callsPerOpOn: number;
  /**
   * One gateway's calls per operation, flights on, same store, keys and load, measured in the
   * same turns as this fleet (absent in runs before it was).
   */
  callsPerOpOne?: number;
  /** Calls per operation with flights on, against one gateway's (callsPerOpOne). */
  vsOneGateway: number;
  redisPerOpOn: number;
  /** Latency flights add against the same fleet without them (ms). */
  p50Added: number;
  p99Added: number;
  /** Operations measured with flights on, and its reads' own calls by the fallback's reason. */
  operations?: number;
  fallbacks?: Record<string, number>;
  /** Its reads by how they flew (owned, joined, raced, a fallback's reason), per operation. */
  flightsPerOp?: Record<string, number>;
  /** Operations per second the closed load got, flights off and on. */
  throughputOff?: number;
  throughputOn?: number;
  /** CPU milliseconds per operation of the load's gateways and of Redis (every master). */
  cpuMsPerOp?: { gatewaysOff: number; gatewaysOn: number; redisOff: number; redisOn: number };
  /** The same fleet under operations started at a fixed rate (the same load for every size). */
  paced?: PacedFleetRow;
  /** One client asking again once answered: what flights add to an idle fleet's latency (ms). */
  solo?: { p50Off: number; p50On: number; p50Added: number; p99Added: number; operations: number };
}

export interface PacedFleetRow {
  /** Operations started per second. */
  rate: number;
  callsPerOpOff: number;
  callsPerOpOn: number;
  callsPerOpOne?: number;
  vsOneGateway: number;
  redisPerOpOn: number;
  /** Median latency (ms) off and on, and what flights add at p50 and p99. */
  p50Off: number;
  p50On: number;
  p50Added: number;
  p99Added: number;
  operations: number;
  fallbacks: Record<string, number>;
  flightsPerOp?: Record<string, number>;
}

export interface FleetResults {
  date: string;
  seconds: number;
  connections: number;
  rows: FleetRow[];
}

export interface BenchResults {
  /** The commit measured and when, where the run recorded them. */
  commit?: string;
  date?: string;
  rounds: number;
  seconds: number;
  rows: BenchRow[];
  aloneMs: Record<string, number>;
  dashboard: { wall: number; calls: number; distinct: number };
  tailcallDashboard: { wall: number; calls: number };
  peerDashboard: { wall: number; calls: number };
  liveDashboards: {
    live: { upstreamCalls: number; results: number };
    timer: { upstreamCalls: number; results: number };
  };
  capacity: { resources: number; idleRssMb: number; steps: CapacityStep[] };
  rssMb: { baseline: number; peakAt64: number; after: number; cappedPeakAt64: number };
  containerRps: { capped: number; uncapped: number };
  containerCpuMsPerRequest: { capped: number; uncapped: number };
  targets: { target: string; measured: number | string; pass: boolean }[];
  /** `npm run bench:fleet`'s last run (bench/fleet.ts), kept apart from `npm run bench`'s. */
  fleet?: FleetResults;
}

/** A ratio to the thousandth (0.798 against 0.8 does not read 0.80); other figures as given. */
const shown = (value: number | string) =>
  typeof value === "number" ? `${value.toFixed(3)}×` : value;
const mb = (value: number | null) => (value === null ? "—" : value.toFixed(1));

export function benchmarksPage(results: BenchResults): string {
  const run = results.commit
    ? `at ${results.commit.slice(0, 7)}${results.date ? ` on ${results.date.slice(0, 10)}` : ""}`
    : "(commit not recorded)";
  const missed = results.targets.filter((target) => !target.pass).length;
  const last = results.capacity.steps.at(-1);
  return [
    "# Benchmarks",
    "",
    "<!-- Generated by `npm run docs:bench` from bench/results.json (`npm run bench` writes both): edit scripts/benchmarks-doc.ts, not this page. -->",
    "",
    "Speed and memory targets live here and in `npm run bench`, never in timed unit tests. Every",
    "figure below is from one run on loopback of this project's shared 2-core machine: compare",
    "ratios within a run, not figures across runs. What each round of profiling learned is",
    "[bench/profile.md](../bench/profile.md).",
    "",
    "## How to reproduce",
    "",
    "```sh",
    "npm ci",
    "(cd bench/peer && npm ci) && (cd bench/tailcall && npm ci)   # the two peers, once",
    "npm run bench                   # about 13 minutes: writes bench/results.json and this page",
    "npm run bench:pair -- ../other  # the distinct load on this checkout and another, interleaved",
    "npm run bench:floor             # CPU per request against the fair floor",
    "npm run bench:checks            # the collector's and memory's figures (bench/checks/)",
    "```",
    "",
    "`BENCH_ROUNDS` and `BENCH_SECONDS` set the interleaved rounds and their length; each server is",
    "warmed for 15 s first. Tailcall 1.0.0 (`@tailcallhq/core-linux-x64-gnu`) is the Rust peer.",
    "",
    "## What the rows measure",
    "",
    "- **Distinct resources** (`bench/distinct.ts`, the gated row): 16 connections, each with the",
    "  key of an organization of its own, asking for its agents in turn. Nothing can be shared, so",
    "  every operation makes one upstream call (the row prints the count from the sandbox's log).",
    "- **The fair floor** (`bench/fair-floor.ts`): parse the GraphQL request, make the one GET, parse",
    "  the answer, write the GraphQL answer — what any gateway must do at least. Beside it the raw",
    "  byte forwarder (`bench/raw-proxy.ts`) and the ceiling (`bench/bare-execute.ts`: our schema",
    "  on bare node:http and graphql-js, no yoga and no rule).",
    "- **voicegraph** as `npm start` runs it (its V8 flags and variables), every rule on, then with",
    "  coalescing off or the read cache on; **Hive Gateway** and **Tailcall** on the same loads.",
    "- **Sharing** rows: one key and one resource from every connection, a figure of coalescing.",
    "- **The dashboard** (`bench/queries.ts`, 20 ms upstream latency): alone and under load; 50",
    "  users opening one organization's dashboard; 50 live dashboards kept current for a minute.",
    "- **Capacity** (`bench/capacity.ts`): open live queries on one instance, RSS and upstream calls",
    "  per interval; **memory** at 64 connections, uncapped and with a 128 MB old space.",
    "",
    `## Targets, last run ${run}`,
    "",
    `${results.rounds} interleaved rounds of ${results.seconds} s; ${missed === 0 ? "every target met" : `${missed} target(s) missed`}.`,
    "",
    "| target | measured | |",
    "|---|---|---|",
    ...results.targets.map(
      (target) =>
        `| ${target.target} | ${shown(target.measured)} | ${target.pass ? "met" : "**missed**"} |`,
    ),
    "",
    "## The rows of the last run",
    "",
    "req/s is the median round (min–max).",
    "",
    "| scenario | req/s (min–max) | p50 ms | p99 ms | upstream req/op | peak RSS MB | errors |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...results.rows.map(
      (row) =>
        `| ${row.scenario} | ${row.rps} (${row.rpsMin}–${row.rpsMax}) | ${row.p50} | ${row.p99} | ${row.upstreamPerOp.toFixed(2)} | ${mb(row.peakRssMb)} | ${row.errors} |`,
    ),
    "",
    `- **Dashboard alone** (median wall time, upstream requests): voicegraph ${results.dashboard.wall.toFixed(1)} ms and ${results.dashboard.calls} requests for ${results.dashboard.distinct} distinct resources; Tailcall ${results.tailcallDashboard.wall.toFixed(1)} ms and ${results.tailcallDashboard.calls}; Hive Gateway ${results.peerDashboard.wall.toFixed(1)} ms and ${results.peerDashboard.calls}.`,
    `- **One operation alone** (ms): ${Object.entries(results.aloneMs)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(", ")}.`,
    `- **50 live dashboards for a minute**: ${results.liveDashboards.live.upstreamCalls} upstream calls and ${results.liveDashboards.live.results} results pushed with \`@live\`, against ${results.liveDashboards.timer.upstreamCalls} calls for ${results.liveDashboards.timer.results} results when each client polls on a timer.`,
    last
      ? `- **Capacity**: ${results.capacity.resources} resources followed; at ${last.liveQueries} open live queries RSS ${last.rssMb} MB (${last.rssKbPerLiveQuery} KB each, ${last.slopeKbPerLiveQuery} KB from the step before, ${last.heapKbPerLiveQuery} KB of heap), ${last.upstreamCallsPerInterval} upstream calls per interval, event-loop delay p99 ${last.eventLoopDelayP99Ms} ms.`
      : "- **Capacity**: not measured.",
    `- **Memory**: baseline ${results.rssMb.baseline} MB, peak ${results.rssMb.peakAt64} MB at 64 connections, ${results.rssMb.after} MB after; with a 128 MB old space peak ${results.rssMb.cappedPeakAt64} MB, ${results.containerRps.capped} against ${results.containerRps.uncapped} req/s, CPU per request ${results.containerCpuMsPerRequest.capped.toFixed(3)} against ${results.containerCpuMsPerRequest.uncapped.toFixed(3)} ms.`,
    ...fleetSection(results.fleet),
    "",
    "## How to read it",
    "",
    "The fair floor's own rounds spread by up to 1.8× within a run on this machine, so one run's",
    "ratio moves by tenths of a target's margin: a miss is repeated before it is believed, and a",
    "change is judged by `bench:pair` (the same load on two builds, interleaved) rather than by two",
    "full runs. A micro-optimisation keeps its place only with a check that fails without it",
    "(`bench/checks/`), or goes.",
    "",
  ].join("\n");
}

function fleetSection(fleet: FleetResults | undefined): string[] {
  if (!fleet) return [];
  return [
    "",
    `## A fleet's upstream calls (\`npm run bench:fleet\`, ${fleet.date.slice(0, 10)})`,
    "",
    `${fleet.connections} connections (closed: each asks again once answered), 20 ms upstream, ${fleet.seconds} s per load, one`,
    "key then 12; each gateway an `npm start` process. The fleet with flights off, with them on, and one",
    "gateway with them on (the ratio's other side) take the load in turns (1 s slices: off, on, one, one,",
    "on, off, …). Redis cmds/op: every command Redis ran, inside scripts too. CPU: per operation (/proc).",
    "",
    "| store | gateways | keys | calls/op off | calls/op on | 1 gateway beside | on vs 1 gateway | Redis cmds/op | p50 / p99 added ms | ops/s off → on | gateway CPU ms/op off → on |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...fleet.rows.map(
      (row) =>
        `| ${row.store} | ${row.gateways} | ${row.keys} | ${row.callsPerOpOff.toFixed(3)} | ${row.callsPerOpOn.toFixed(3)} | ${row.callsPerOpOne?.toFixed(3) ?? ""} | ${row.vsOneGateway.toFixed(2)}× | ${row.redisPerOpOn.toFixed(2)} | ${row.p50Added.toFixed(1)} / ${row.p99Added.toFixed(1)} | ${row.throughputOff === undefined ? "" : `${Math.round(row.throughputOff)} → ${Math.round(row.throughputOn ?? 0)}`} | ${row.cpuMsPerOp ? `${row.cpuMsPerOp.gatewaysOff.toFixed(2)} → ${row.cpuMsPerOp.gatewaysOn.toFixed(2)}` : ""} |`,
    ),
    ...pacedTable(fleet.rows, fleet.connections),
  ];
}

/** The paced load's rows: the same operations per second for every fleet size. */
function pacedTable(rows: FleetRow[], connections: number): string[] {
  const paced = rows.filter((row) => row.paced !== undefined);
  if (paced.length === 0) return [];
  return [
    "",
    `Paced: ${paced[0]?.paced?.rate} operations started per second (at most ${connections} out), the same load for every size.`,
    "Last column: one client alone on one gateway (no other instance flies its reads), by turns: off, on, on, off, ….",
    "",
    "| store | gateways | keys | calls/op off | calls/op on | 1 gateway beside | on vs 1 gateway | Redis cmds/op | p50 off → on ms | p50 / p99 added ms | one client: p50 off → on (added) ms |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...paced.map((row) => {
      const p = row.paced as PacedFleetRow;
      const solo = row.solo
        ? `${row.solo.p50Off.toFixed(1)} → ${row.solo.p50On.toFixed(1)} (${row.solo.p50Added.toFixed(2)})`
        : "";
      return `| ${row.store} | ${row.gateways} | ${row.keys} | ${p.callsPerOpOff.toFixed(3)} | ${p.callsPerOpOn.toFixed(3)} | ${p.callsPerOpOne?.toFixed(3) ?? ""} | ${p.vsOneGateway.toFixed(2)}× | ${p.redisPerOpOn.toFixed(2)} | ${p.p50Off.toFixed(1)} → ${p.p50On.toFixed(1)} | ${p.p50Added.toFixed(1)} / ${p.p99Added.toFixed(1)} | ${solo} |`;
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = JSON.parse(readFileSync(RESULTS, "utf8")) as BenchResults;
  writeFileSync(PAGE, benchmarksPage(results));
}
