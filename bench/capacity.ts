import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { type Client, createClient } from "graphql-ws";
import { WebSocket } from "ws";
import {
  EXTRA_ORGANIZATION_AGENTS,
  extraOrganizationKey,
  extraOrganizationSlug,
} from "../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { askReport } from "./memory-signal.ts";
import { GATEWAY_NODE_FLAGS, rssMb, spawnServer } from "./processes.ts";

/**
 * `npm run bench:capacity`: how many open live queries one gateway holds, and at what cost. One
 * gateway, started as `npm start` starts it in a process of its own (so its RSS is its own, not
 * the clients'), over a sandbox of `KEYS` organizations of 12 agents each: each graphql-ws socket
 * is one key and holds `PER_SOCKET` `@live` queries of that key's agents in turn, so the live
 * queries follow KEYS × 12 distinct resources however many are open. At each step (2 000, 5 000,
 * 10 000 open; BENCH_CAPACITY_STEPS) it reads, while they are open: the upstream calls per poll
 * interval over a window, the event loop's delay at p99 over that window, and the RSS after a
 * collection, as (RSS at N − RSS at 0) / N per live query and as the slope between steps.
 * `BENCH_CAPACITY_SNAPSHOTS=1` also writes a heap snapshot of the gateway idle and at each step
 * (bench/profile/*.heapsnapshot), to see what each open live query holds.
 */
export const LIVE_AGENT = `query LiveAgent($id: ID!) @live {
  agent(id: $id) { id name status greeting }
}`;

const KEYS = 16;
const PER_SOCKET = 25;
const INTERVAL_MS = 1000;
/** Poll intervals each step's window lasts: enough for every poller to read several times. */
const WINDOW_INTERVALS = 5;
/** Live queries asked for at once while opening: their first answers are awaited in turn. */
const OPENING_BATCH = 500;

export interface CapacityStep {
  liveQueries: number;
  rssMb: number;
  heapUsedMb: number;
  /** (RSS at N − RSS at 0) / N, in KB. */
  rssKbPerLiveQuery: number;
  /** (RSS at N − RSS at the step before) / (N − N before), in KB. */
  slopeKbPerLiveQuery: number;
  heapKbPerLiveQuery: number;
  upstreamCallsPerInterval: number;
  distinctResourcesRead: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
}

export interface CapacityFigures {
  resources: number;
  idleRssMb: number;
  idleHeapUsedMb: number;
  steps: CapacityStep[];
}

/** The row's steps: BENCH_CAPACITY_STEPS (comma-separated; default 2000,5000,10000). */
export function capacitySteps(): number[] {
  const steps = (process.env.BENCH_CAPACITY_STEPS ?? "2000,5000,10000").split(",").map(Number);
  if (steps.some((n, i) => !Number.isInteger(n) || n <= (steps[i - 1] ?? 0))) {
    throw new Error("BENCH_CAPACITY_STEPS is increasing whole numbers, e.g. 2000,5000,10000");
  }
  return steps;
}

export async function capacity(steps: number[]): Promise<CapacityFigures> {
  const most = steps.at(-1) ?? 0;
  const sandbox = await startSandbox({ rateLimit: 1e9, extraOrganizations: KEYS });
  const dir = "bench/profile";
  if (!existsSync(dir)) mkdirSync(dir);
  const out = `${dir}/capacity.json`;
  const snapshots = process.env.BENCH_CAPACITY_SNAPSHOTS === "1";
  const snapshotFlags = snapshots
    ? ["--heapsnapshot-signal=SIGUSR1", `--diagnostic-dir=${dir}`]
    : [];
  const gateway = await spawnServer(
    [
      "--expose-gc",
      ...snapshotFlags,
      ...GATEWAY_NODE_FLAGS,
      "bench/memory-report.ts",
      "src/main.ts",
    ],
    {
      UPSTREAM_URL: sandbox.url,
      PORT: "0",
      LOG_LEVEL: "error",
      POLL_INTERVAL_MS: String(INTERVAL_MS),
      MAX_SUBSCRIPTIONS_TOTAL: String(most),
      MAX_SUBSCRIPTIONS_PER_KEY: String(Math.ceil(most / KEYS) + PER_SOCKET),
      MAX_SUBSCRIPTIONS_PER_CONNECTION: String(PER_SOCKET),
      MAX_CONNECTIONS: String(Math.ceil(most / PER_SOCKET) * 2 + 10),
      MEMORY_OUT: out,
      MEMORY_GC: "1",
    },
  );
  const sockets = new Sockets(gateway.url);
  try {
    // A serving process, not a cold one: every resource followed once, then let go.
    await sockets.open(KEYS * EXTRA_ORGANIZATION_AGENTS);
    await sockets.closeAll();
    await sleep(2 * INTERVAL_MS);
    await askReport(gateway.pid, out);
    const idle = await askReport(gateway.pid, out);
    const idleRss = rssMb(gateway.pid, "VmRSS");
    const idleHeap = idle.usage.heapUsed / 2 ** 20;
    if (snapshots) await snapshot(gateway.pid, dir);
    const figures: CapacityFigures = {
      resources: KEYS * EXTRA_ORGANIZATION_AGENTS,
      idleRssMb: idleRss,
      idleHeapUsedMb: round(idleHeap),
      steps: [],
    };
    for (const n of steps) {
      await sockets.open(n - sockets.liveQueries);
      await sleep(2 * INTERVAL_MS);
      // The window starts here: the delay histogram afresh, the upstream's log empty.
      await askReport(gateway.pid, out);
      sandbox.clearRequests();
      await sleep(WINDOW_INTERVALS * INTERVAL_MS);
      const calls = readsOf(sandbox);
      const report = await askReport(gateway.pid, out);
      const rss = rssMb(gateway.pid, "VmRSS");
      const heap = report.usage.heapUsed / 2 ** 20;
      const before = figures.steps.at(-1);
      figures.steps.push({
        liveQueries: n,
        rssMb: rss,
        heapUsedMb: round(heap),
        rssKbPerLiveQuery: round(((rss - idleRss) * 1024) / n),
        slopeKbPerLiveQuery: round(
          ((rss - (before?.rssMb ?? idleRss)) * 1024) / (n - (before?.liveQueries ?? 0)),
        ),
        heapKbPerLiveQuery: round(((heap - idleHeap) * 1024) / n),
        upstreamCallsPerInterval: round(calls.count / WINDOW_INTERVALS),
        distinctResourcesRead: calls.distinct,
        eventLoopDelayP99Ms: round(report.eventLoopDelay.p99),
        eventLoopDelayMaxMs: round(report.eventLoopDelay.max),
      });
      if (snapshots) await snapshot(gateway.pid, dir);
      console.error(`  capacity: ${describeStep(figures.steps.at(-1) as CapacityStep)}`);
      if (sockets.failures.length > 0) {
        throw new Error(`live queries failed: ${sockets.failures.slice(0, 3).join("; ")}`);
      }
    }
    return figures;
  } finally {
    await sockets.closeAll();
    await gateway.stop();
    await sandbox.close();
  }
}

/** Signals a heap snapshot and waits (≤ 60 s) until its file has stopped growing. */
async function snapshot(pid: number, dir: string): Promise<void> {
  const files = () => readdirSync(dir).filter((name) => name.endsWith(".heapsnapshot"));
  const before = new Set(files());
  process.kill(pid, "SIGUSR1");
  let size = -1;
  for (let i = 0; i < 120; i++) {
    await sleep(500);
    const made = files().find((name) => !before.has(name));
    if (made === undefined) continue;
    const now = statSync(`${dir}/${made}`).size;
    if (now === size && now > 0) {
      console.error(`  capacity: heap snapshot ${dir}/${made}`);
      return;
    }
    size = now;
  }
  throw new Error("no heap snapshot in 60 s");
}

/** The window's upstream calls, and how many distinct resources they read. */
function readsOf(sandbox: Sandbox): { count: number; distinct: number } {
  const requests = [...sandbox.requests];
  const distinct = new Set(requests.map((r) => `${r.headers.authorization} ${r.url}`));
  return { count: requests.length, distinct: distinct.size };
}

/**
 * The clients: socket `s` is key `s mod KEYS`, and its `PER_SOCKET` live queries ask for that
 * key's agents in turn. Opened `OPENING_BATCH` at a time, each batch's first answers awaited
 * (≤ 30 s) so the gateway is never asked for thousands of first executions at once.
 */
class Sockets {
  readonly #url: string;
  readonly #clients: Client[] = [];
  readonly #stops: Array<() => void> = [];
  readonly failures: string[] = [];
  liveQueries = 0;

  constructor(url: string) {
    this.#url = `${url.replace(/^http/, "ws")}/graphql`;
  }

  async open(count: number): Promise<void> {
    for (let opened = 0; opened < count; ) {
      const batch = Math.min(OPENING_BATCH, count - opened);
      await Promise.all(Array.from({ length: batch }, () => this.#one()));
      opened += batch;
    }
  }

  #one(): Promise<void> {
    const index = this.liveQueries++;
    const socket = Math.floor(index / PER_SOCKET);
    const key = socket % KEYS;
    const client = this.#clients[socket] ?? this.#client(key);
    this.#clients[socket] = client;
    const n = ((index % PER_SOCKET) % EXTRA_ORGANIZATION_AGENTS) + 1;
    const agent = `agt_${extraOrganizationSlug(key + 1)}_${String(n).padStart(3, "0")}`;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.failures.push(`no first answer for ${agent} in 30 s`);
        resolve();
      }, 30_000);
      let first = true;
      this.#stops.push(
        client.subscribe(
          { query: LIVE_AGENT, variables: { id: agent } },
          {
            next: (result) => {
              if (result.errors) this.failures.push(JSON.stringify(result.errors).slice(0, 500));
              if (!first) return;
              first = false;
              clearTimeout(timer);
              resolve();
            },
            error: (error) => {
              this.failures.push(String((error as Error).message ?? JSON.stringify(error)));
              clearTimeout(timer);
              resolve();
            },
            complete: () => undefined,
          },
        ),
      );
    });
  }

  #client(key: number): Client {
    return createClient({
      url: this.#url,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${extraOrganizationKey(key + 1)}` },
      retryAttempts: 0,
    });
  }

  async closeAll(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop();
    await Promise.all(this.#clients.splice(0).map((client) => client.dispose()));
    this.liveQueries = 0;
  }
}

const round = (n: number) => Math.round(n * 10) / 10;

function describeStep(step: CapacityStep): string {
  return (
    `${step.liveQueries} live queries: RSS ${step.rssMb} MB (${step.rssKbPerLiveQuery} KB per ` +
    `live query, ${step.slopeKbPerLiveQuery} KB from the step before; heap ` +
    `${step.heapKbPerLiveQuery} KB), ${step.upstreamCallsPerInterval} upstream calls per ` +
    `interval over ${step.distinctResourcesRead} resources, event-loop delay p99 ` +
    `${step.eventLoopDelayP99Ms} ms (max ${step.eventLoopDelayMaxMs})`
  );
}

/** The row as one paragraph, for `npm run bench`'s report and this file run alone. */
export function describeCapacity(figures: CapacityFigures): string {
  return (
    `Capacity (one gateway, ${PER_SOCKET} @live queries per graphql-ws socket over ` +
    `${figures.resources} distinct resources, ${INTERVAL_MS} ms interval; RSS after a ` +
    `collection, ${figures.idleRssMb} MB with none open): ` +
    `${figures.steps.map(describeStep).join("; ")}.`
  );
}

if (import.meta.main) {
  const figures = await capacity(capacitySteps());
  console.log(JSON.stringify(figures, null, 2));
  console.log(describeCapacity(figures));
}
