import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type BenchResults,
  benchmarksPage,
  PAGE,
  type BenchRow as Row,
} from "../scripts/benchmarks-doc.ts";
import { DEMO_KEYS, SEED_IDS } from "../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { capacity, capacitySteps, describeCapacity } from "./capacity.ts";
import { clientDashboard } from "./client-dashboard.ts";
import {
  DISTINCT_ORGANIZATIONS,
  distinctGraphql,
  distinctRest,
  distinctTarget,
} from "./distinct.ts";
import {
  describeLiveDashboards,
  liveDashboardSettings,
  liveDashboards,
} from "./live-dashboards.ts";
import { load, medianAlone, type Request } from "./load.ts";
import { PEER_DASHBOARD, PEER_DISTINCT, PEER_SINGLE, startPeer } from "./peer.ts";
import {
  type Child,
  cpuMs,
  GATEWAY_NODE_FLAGS,
  ONE_KEY_BOUNDS,
  rssMb,
  spawnServer,
} from "./processes.ts";
import { DASHBOARD, DISTINCT, SINGLE } from "./queries.ts";
import {
  startTailcall,
  TAILCALL_DASHBOARD,
  TAILCALL_DISTINCT,
  TAILCALL_SINGLE,
} from "./tailcall.ts";
import { WARM_LOAD_SECONDS, WARM_STEP_SECONDS, warmUp } from "./warm-up.ts";

/**
 * `npm run bench`: every scenario in one run, side by side (docs/benchmarks.md). Scenarios that are
 * compared are measured interleaved, `BENCH_ROUNDS` times each, and reported as the median with
 * the min–max of the rounds, so a reader can tell a change from the machine's noise.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
// Five rounds: with three, one slow moment of the machine moved a median by a third (a round of
// one server read 1 400 req/s and another of the same server 3 500 within one run).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 16;
const LATENCY_MS = 20;
const ALONE_WARMUP = 30;
/**
 * Seconds of load on each gateway before its operation is timed alone (see `alone`): about 5 000
 * of voicegraph's dashboards, past the calls after which V8 optimises a function with TurboFan.
 */
const ALONE_WARM_LOAD_SECONDS = 20;
// The row's gap to Tailcall is about half a millisecond and one run's spread is a few: 121 runs
// put the median's own error near two tenths of a millisecond (61 left it near three, and the
// row's difference moved by ±0.8 ms from one full run to the next).
const ALONE_RUNS = 121;
type Alone = { wall: number; calls: number; distinct: number };
const auth = { authorization: `Bearer ${DEMO_KEYS.acme}` };
const json = { ...auth, "content-type": "application/json" };

const rows: Row[] = [];

/**
 * Waits until the sandbox has had no request for 250 ms: when a load stops, the operations still in
 * flight go on calling upstream (the peer's dashboard, about a second at p99, over a hundred calls
 * each), and those calls must not be counted in the next scenario's log.
 */
async function settled(sandbox: Sandbox): Promise<void> {
  let seen = -1;
  while (seen !== sandbox.requests.length) {
    seen = sandbox.requests.length;
    await sleep(250);
  }
}

type Run = () => Promise<{
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  sent?: number;
  errors: number;
}>;

/** A target's figure: a ratio to the thousandth, so 0.798 against 0.8 does not read 0.80. */
const figure = (value: number) => value.toFixed(Math.abs(value) < 10 ? 3 : 2);

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/**
 * One round of one scenario: its figures, with the upstream requests per operation it caused,
 * counted once the upstream has gone quiet, over every operation sent (the ones in flight when the
 * load stopped made their calls too). An upstream error answer (3xx to 5xx) counts as an error; a
 * call left unanswered because its client went away at the end (status 0) does not.
 */
async function once(sandbox: Sandbox, run: Run) {
  await settled(sandbox);
  sandbox.clearRequests();
  const result = await run();
  await settled(sandbox);
  const upstreamPerOp = sandbox.requests.length / Math.max(1, result.sent ?? result.requests);
  const upstreamErrors = sandbox.requests.filter((r) => r.status >= 300).length;
  return { ...result, errors: result.errors + upstreamErrors, upstreamPerOp };
}

interface Scenario {
  name: string;
  sandbox: Sandbox;
  child?: Child | undefined;
  run: Run;
}

/**
 * Measures the scenarios interleaved (round 1 of each, then round 2 of each, …), so a slow moment
 * of the machine falls on all of them alike; each row is the median round, with the min–max. Each
 * round starts one scenario further along, so no scenario always follows the same one (a peer's
 * process still collecting after its load, say).
 */
async function interleaved(scenarios: Scenario[], rounds = ROUNDS): Promise<Row[]> {
  const runs = scenarios.map(() => [] as Awaited<ReturnType<typeof once>>[]);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < scenarios.length; step++) {
      const i = (step + round) % scenarios.length;
      const scenario = scenarios[i] as Scenario;
      runs[i]?.push(await once(scenario.sandbox, scenario.run));
    }
  }
  return scenarios.map((scenario, i) => {
    const results = runs[i] ?? [];
    const rps = results.map((r) => r.rps);
    const middle =
      results.find((r) => r.rps === median(rps)) ?? (results[0] as (typeof results)[0]);
    const row: Row = {
      scenario: scenario.name,
      rps: median(rps),
      rpsMin: Math.min(...rps),
      rpsMax: Math.max(...rps),
      p50: middle.p50,
      p99: middle.p99,
      upstreamPerOp: Math.round(median(results.map((r) => r.upstreamPerOp)) * 100) / 100,
      peakRssMb: scenario.child ? rssMb(scenario.child.pid, "VmHWM") : null,
      errors: results.reduce((n, r) => n + r.errors, 0),
    };
    rows.push(row);
    console.error(
      `  ${row.scenario}: ${row.rps} req/s (${row.rpsMin}–${row.rpsMax}), p50 ${row.p50} ms`,
    );
    return row;
  });
}

async function measured(sandbox: Sandbox, scenario: string, child: Child | undefined, run: Run) {
  const [row] = await interleaved([{ name: scenario, sandbox, child, run }], 1);
  return row as Row;
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);
/** A difference in milliseconds with its sign: a noisy run can put voicegraph under the floor. */
const signedMs = (ms: number) => `${ms < 0 ? "−" : "+"}${Math.abs(ms).toFixed(2)} ms`;

const gql = (url: string, query: string) => ({
  url: `${url}/graphql`,
  connections: CONNECTIONS,
  seconds: SECONDS,
  method: "POST" as const,
  headers: json,
  body: JSON.stringify({ query }),
});

/** Each connection's requests to a GraphQL server: the same one, one key and one resource. */
const sameRequest = (query: string) => (): Request[] => [
  { method: "POST", path: "/graphql", headers: json, body: JSON.stringify({ query }) },
];

/** The load of one row: `connections` connections, each sending its requests round robin. */
const loadOf = (
  url: string,
  perConnection: (connection: number) => Request[],
  connections = CONNECTIONS,
) => load({ url, connections, seconds: SECONDS, perConnection });

/** One operation; its data, or a thrown error when the gateway answers errors. */
async function answer(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = json,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
  if (body.errors) throw new Error(`gateway answered errors: ${JSON.stringify(body.errors)}`);
  return body.data ?? {};
}

async function postOnce(url: string, query: string): Promise<number> {
  const started = performance.now();
  await answer(url, query);
  return performance.now() - started;
}

/** Fails the run unless the check holds: a peer answering the wrong thing must not be measured. */
function expect(ok: boolean, what: string, data: unknown): void {
  if (!ok) throw new Error(`peer: ${what}; it answered ${JSON.stringify(data).slice(0, 2000)}`);
}

/** The peer's dashboard carries what voicegraph's does: 50 conversations, each with its agent and
 * its contact's stats (a link that failed upstream would be an Error member or null, not an error). */
function checkPeerDashboard(data: Record<string, unknown>): void {
  interface Item {
    id?: string;
    agent?: { id?: string; name?: string } | null;
    contactId?: string;
    contactStats?: { contactId?: string; totalConversations?: number } | null;
  }
  const get = (key: string) => data[key] as Record<string, unknown> | null;
  expect(get("getOrganization")?.name !== undefined, "no organization", data.getOrganization);
  const agent = get("getAgent") as { id?: string; voiceConfigs?: unknown[] } | null;
  expect(agent?.id === SEED_IDS.acmeAgent && Array.isArray(agent.voiceConfigs), "no agent", agent);
  expect(
    get("getAgentStats")?.agentId === SEED_IDS.acmeAgent,
    "no agent stats",
    data.getAgentStats,
  );
  const items = (get("listConversations")?.items ?? []) as Item[];
  expect(items.length === 50, `${items.length} conversations, not 50`, data.listConversations);
  for (const item of items) {
    const linked =
      typeof item.agent?.id === "string" &&
      typeof item.agent.name === "string" &&
      item.contactStats?.contactId === item.contactId &&
      typeof item.contactStats?.totalConversations === "number";
    expect(linked, `conversation ${item.id} lacks its agent or its contact's stats`, item);
  }
  const campaigns = (get("listCampaigns")?.items ?? []) as unknown[];
  expect(campaigns.length > 0, "no campaigns", data.listCampaigns);
}

/** Tailcall's dashboard carries what voicegraph's does: 50 conversations with agent and contact stats. */
function checkTailcallDashboard(data: Record<string, unknown>): void {
  const items = ((data.conversations as { items?: unknown[] } | null)?.items ?? []) as Array<{
    agent?: { id?: string } | null;
    contactId?: string;
    contactStats?: { contactId?: string } | null;
  }>;
  const linked = items.filter(
    (item) => typeof item.agent?.id === "string" && item.contactStats?.contactId === item.contactId,
  );
  if (items.length !== 50 || linked.length !== 50) {
    throw new Error(`tailcall: ${linked.length} of ${items.length} conversations linked, not 50`);
  }
}

/**
 * Each gateway's operation alone, one at a time: first warmed up, so that V8's tiers and a
 * gateway's compiled queries are at the steady state of a serving process, not a cold start:
 * `ALONE_WARM_LOAD_SECONDS` of load at 16 connections (a JavaScript function that runs once per
 * operation is optimised by Maglev after about 400 calls and by TurboFan after about 3,000; thirty
 * operations left it in V8's baseline tier, and 1 200 short of TurboFan), then `ALONE_WARMUP`
 * runs one at a time of each, interleaved. Then `ALONE_RUNS` runs interleaved across the gateways
 * (drift falls on all alike): the median wall time; and the upstream requests of ten runs of
 * each, counted apart.
 */
async function alone(sandbox: Sandbox, targets: Array<{ url: string; query: string }>) {
  for (const { url, query } of targets) {
    await load({ ...gql(url, query), seconds: ALONE_WARM_LOAD_SECONDS });
    await settled(sandbox);
  }
  // The runs one at a time that end the warm-up are interleaved too: every gateway has served
  // just before the timed runs begin (one after another, the first warmed had sat idle for the
  // others' 40 s of load).
  for (let i = 0; i < ALONE_WARMUP; i++) {
    for (const { url, query } of targets) await postOnce(url, query);
  }
  const walls = targets.map((): number[] => []);
  for (let i = 0; i < ALONE_RUNS; i++) {
    for (const [index, { url, query }] of targets.entries()) {
      walls[index]?.push(await postOnce(url, query));
    }
  }
  const counted: Array<{ calls: number; distinct: number }> = [];
  for (const { url, query } of targets) {
    await settled(sandbox);
    sandbox.clearRequests();
    for (let i = 0; i < 10; i++) await postOnce(url, query);
    counted.push({
      calls: sandbox.requests.length / 10,
      distinct: new Set(sandbox.requests.map((r) => r.url)).size,
    });
  }
  return targets.map((_, index) => ({
    wall: median(walls[index] ?? []),
    ...(counted[index] as Omit<Alone, "wall">),
  }));
}

const fast = await startSandbox({ rateLimit: 1e9, extraOrganizations: DISTINCT_ORGANIZATIONS });
const slow = await startSandbox({ rateLimit: 1e9, latencyMs: LATENCY_MS });
const gatewayEnv = (upstream: Sandbox, extra: Record<string, string> = {}) => ({
  UPSTREAM_URL: upstream.url,
  PORT: "0",
  LOG_LEVEL: "error",
  MAX_UPSTREAM_CALLS: "1000",
  // One key is the whole load here (its 50 users' calls): every other rule stays on.
  ...ONE_KEY_BOUNDS,
  ...extra,
});
const main = [...GATEWAY_NODE_FLAGS, "src/main.ts"];
const proxy = await spawnServer(["bench/raw-proxy.ts", fast.url]);
const floor = await spawnServer(["bench/fair-floor.ts", fast.url]);
const bare = await spawnServer([...GATEWAY_NODE_FLAGS, "bench/bare-execute.ts", fast.url]);
const gateway = await spawnServer(main, gatewayEnv(fast));
const cachedGateway = await spawnServer(main, gatewayEnv(fast, { UPSTREAM_CACHE_TTL_S: "60" }));
const uncoalescedGateway = await spawnServer(
  main,
  gatewayEnv(fast, { UPSTREAM_COALESCE: "false" }),
);
// Memory is measured with the default settings: the distinct load has one call per key at a time.
const defaults = { UPSTREAM_URL: fast.url, PORT: "0", LOG_LEVEL: "error" };
const defaultGateway = await spawnServer(main, defaults);
// A container's memory limit, as users run the gateway: V8's old space capped (docs/operations.md).
const CONTAINER_OLD_SPACE_MB = 128;
const cappedGateway = await spawnServer(
  [`--max-old-space-size=${CONTAINER_OLD_SPACE_MB}`, ...main],
  defaults,
);
const slowGateway = await spawnServer(main, gatewayEnv(slow));
const slowUncoalesced = await spawnServer(main, gatewayEnv(slow, { UPSTREAM_COALESCE: "false" }));
const slowCached = await spawnServer(main, gatewayEnv(slow, { UPSTREAM_CACHE_TTL_S: "60" }));
const peer = await startPeer(fast);
const slowPeer = await startPeer(slow);
const tailcall = await startTailcall(fast);
const slowTailcall = await startTailcall(slow);
try {
  const agentPath = `/v1/agents/${SEED_IDS.acmeAgent}`;
  console.error(`bench: ${ROUNDS} rounds of ${SECONDS} s per scenario, ${CONNECTIONS} connections`);
  for (const url of [gateway.url, cachedGateway.url, uncoalescedGateway.url, cappedGateway.url]) {
    await load({ ...gql(url, SINGLE), connections: 4, seconds: 1 }); // warm-up
  }
  // The memory rows' gateways, as the distinct rows' servers are warmed below (warm-up.ts).
  for (const url of [defaultGateway.url, cappedGateway.url]) {
    await warmUp((seconds) =>
      load({ url, connections: CONNECTIONS, seconds, perConnection: distinctGraphql(DISTINCT) }),
    );
  }
  await measured(fast, "direct REST GET /v1/agents/{id}", undefined, () =>
    load({ url: fast.url + agentPath, connections: CONNECTIONS, seconds: SECONDS, headers: auth }),
  );

  // The answers are checked before anything is measured: a peer answering the wrong thing is no peer.
  const peerAgent = (await answer(peer.url, PEER_SINGLE)).getAgent as { id?: string } | null;
  expect(peerAgent?.id === SEED_IDS.acmeAgent, "getAgent did not answer the agent", peerAgent);
  const tcAgent = (await answer(tailcall.url, TAILCALL_SINGLE)).agent as { id?: string } | null;
  expect(tcAgent?.id === SEED_IDS.acmeAgent, "tailcall did not answer the agent", tcAgent);
  const floorAgent = (await answer(floor.url, SINGLE)).agent as { id?: string } | null;
  expect(
    floorAgent?.id === SEED_IDS.acmeAgent,
    "the fair floor did not answer the agent",
    floorAgent,
  );

  // The distinct load's answers too: every target answers the agent the request named.
  const { key, agent } = distinctTarget(3, 5);
  const keyed = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const answered = async (what: string, url: string, query: string, field: string) => {
    const data = (await answer(url, query, { id: agent }, keyed))[field] as { id?: string } | null;
    expect(data?.id === agent, `${what} did not answer ${agent} for its key`, data);
  };
  await answered("the fair floor", floor.url, DISTINCT, "agent");
  await answered("voicegraph", gateway.url, DISTINCT, "agent");
  await answered("the ceiling", bare.url, DISTINCT, "agent");
  await answered("tailcall", tailcall.url, TAILCALL_DISTINCT, "agent");
  await answered("hive gateway", peer.url, PEER_DISTINCT, "getAgent");
  const forwarded = await fetch(`${proxy.url}/v1/agents/${agent}`, { headers: keyed });
  expect(forwarded.status === 200, "the raw forwarder did not answer 200", forwarded.status);

  const distinct = distinctGraphql(DISTINCT);
  // Every server of the distinct rows is warmed alike before its first round (warm-up.ts): its
  // own load at full concurrency, and no other on that load. Each step's rate is reported.
  const warmed: Record<string, number[]> = {};
  for (const [name, url, perConnection] of [
    ["raw forwarder", proxy.url, distinctRest],
    ["fair floor", floor.url, distinct],
    ["voicegraph", gateway.url, distinct],
    ["voicegraph, coalescing off", uncoalescedGateway.url, distinct],
    ["ceiling", bare.url, distinct],
    ["Hive Gateway", peer.url, distinctGraphql(PEER_DISTINCT)],
    ["Tailcall", tailcall.url, distinctGraphql(TAILCALL_DISTINCT)],
  ] as const) {
    warmed[name] = await warmUp((seconds) =>
      load({ url, connections: CONNECTIONS, seconds, perConnection }),
    );
  }
  const [
    raw,
    fair,
    single,
    uncoalescedSingle,
    ceiling,
    peerSingle,
    tcSingle,
    sharedSingle,
    cachedSingle,
    tcShared,
  ] = (await interleaved([
    {
      name: "raw undici proxy (bytes forwarded), distinct resources",
      sandbox: fast,
      child: proxy,
      run: () => loadOf(proxy.url, distinctRest),
    },
    {
      name: "fair floor (parse, GET, parse, shape), distinct resources",
      sandbox: fast,
      child: floor,
      run: () => loadOf(floor.url, distinct),
    },
    {
      name: "voicegraph agent(id), distinct resources, every rule on",
      sandbox: fast,
      child: gateway,
      run: () => loadOf(gateway.url, distinct),
    },
    {
      name: "voicegraph agent(id), distinct resources, coalescing off",
      sandbox: fast,
      child: uncoalescedGateway,
      run: () => loadOf(uncoalescedGateway.url, distinct),
    },
    {
      name: "ceiling: its schema on bare node:http, no yoga, distinct resources",
      sandbox: fast,
      child: bare,
      run: () => loadOf(bare.url, distinct),
    },
    {
      name: "peer Hive Gateway getAgent(agentId), distinct resources",
      sandbox: fast,
      child: peer,
      run: () => loadOf(peer.url, distinctGraphql(PEER_DISTINCT)),
    },
    {
      name: "peer Tailcall agent(id), distinct resources",
      sandbox: fast,
      child: tailcall,
      run: () => loadOf(tailcall.url, distinctGraphql(TAILCALL_DISTINCT)),
    },
    {
      name: "sharing: voicegraph agent(id), one key and one resource, every rule on",
      sandbox: fast,
      child: gateway,
      run: () => loadOf(gateway.url, sameRequest(SINGLE)),
    },
    {
      name: "sharing: voicegraph agent(id), one key and one resource, read cache on",
      sandbox: fast,
      child: cachedGateway,
      run: () => loadOf(cachedGateway.url, sameRequest(SINGLE)),
    },
    {
      name: "sharing: peer Tailcall agent(id), one key and one resource",
      sandbox: fast,
      child: tailcall,
      run: () => loadOf(tailcall.url, sameRequest(TAILCALL_SINGLE)),
    },
  ])) as [Row, Row, Row, Row, Row, Row, Row, Row, Row, Row];

  // One request at a time: the latency each adds with no queue in front of it.
  const post = { method: "POST" as const, headers: json, body: JSON.stringify({ query: SINGLE }) };
  const aloneMs = {
    raw: await medianAlone(proxy.url + agentPath, { headers: auth }),
    fair: await medianAlone(`${floor.url}/graphql`, post),
    voicegraph: await medianAlone(`${gateway.url}/graphql`, post),
    ceiling: await medianAlone(`${bare.url}/graphql`, post),
  };

  // RSS at 64 connections (64 keys, distinct resources, default settings) and after the load
  // stops; and with an old-space cap, at what cost. The baseline is that of a serving process:
  // after one round of the 16-connection load, as the other gateways had.
  await loadOf(defaultGateway.url, distinct);
  await sleep(1000);
  const baseline = rssMb(defaultGateway.pid, "VmRSS");
  // The capped process against the uncapped one, both loaded at once in each of ROUNDS rounds,
  // after the uncapped one's peak round alone. Rounds in turn compared windows seconds apart, and
  // the machine's load moved one process's CPU per request by a quarter from one to the next
  // (docs/benchmarks.md): loaded together, both see the same machine, and each round's ratio is
  // kept. Each round's CPU per request is kept too: it counts V8's helper threads as well.
  const ratios: number[] = [];
  const cpuPerRequest = { capped: [] as number[], uncapped: [] as number[] };
  const rates = { capped: [] as number[], uncapped: [] as number[] };
  const peakRound = await loadOf(defaultGateway.url, distinct, 64);
  const at64 = { rps: peakRound.rps };
  const peak64 = rssMb(defaultGateway.pid, "VmHWM");
  await sleep(3000);
  const after = rssMb(defaultGateway.pid, "VmRSS");
  // The round the uncapped process had before its baseline, so both start equally warm.
  await loadOf(cappedGateway.url, distinct);
  for (let round = 0; round < ROUNDS; round++) {
    const before = { capped: cpuMs(cappedGateway.pid), uncapped: cpuMs(defaultGateway.pid) };
    const [capped, uncapped] = await Promise.all([
      loadOf(cappedGateway.url, distinct, 64),
      loadOf(defaultGateway.url, distinct, 64),
    ]);
    ratios.push(capped.requests / uncapped.requests);
    rates.capped.push(capped.rps);
    rates.uncapped.push(uncapped.rps);
    cpuPerRequest.capped.push((cpuMs(cappedGateway.pid) - before.capped) / capped.requests);
    cpuPerRequest.uncapped.push((cpuMs(defaultGateway.pid) - before.uncapped) / uncapped.requests);
  }
  const capped64 = { rps: median(rates.capped), cpuMs: median(cpuPerRequest.capped) };
  const uncapped64 = { rps: median(rates.uncapped), cpuMs: median(cpuPerRequest.uncapped) };
  const containerRatio = median(ratios);
  const cappedPeak = rssMb(cappedGateway.pid, "VmHWM");

  // The dashboard, 20 ms upstream latency: one operation alone, then under load, beside the peers.
  const tcData = await answer(slowTailcall.url, TAILCALL_DASHBOARD);
  checkTailcallDashboard(tcData);
  checkPeerDashboard(await answer(slowPeer.url, PEER_DASHBOARD));
  const [dash, peerDash, tcDash] = (await alone(slow, [
    { url: slowGateway.url, query: DASHBOARD },
    { url: slowPeer.url, query: PEER_DASHBOARD },
    { url: slowTailcall.url, query: TAILCALL_DASHBOARD },
  ])) as [Alone, Alone, Alone];
  const [dashboard, peerDashboard, tcDashboard] = (await interleaved([
    {
      name: "voicegraph dashboard (20 ms upstream)",
      sandbox: slow,
      child: slowGateway,
      run: () => load(gql(slowGateway.url, DASHBOARD)),
    },
    {
      name: "peer Hive Gateway dashboard (20 ms upstream)",
      sandbox: slow,
      child: slowPeer,
      run: () => load(gql(slowPeer.url, PEER_DASHBOARD)),
    },
    {
      name: "peer Tailcall dashboard (20 ms upstream)",
      sandbox: slow,
      child: slowTailcall,
      run: () => load(gql(slowTailcall.url, TAILCALL_DASHBOARD)),
    },
  ])) as [Row, Row, Row];

  // One organization's dashboard opened by 50 users at once: what sharing spends of its rate limit.
  const fifty = (url: string) => () => load({ ...gql(url, DASHBOARD), connections: 50 });
  const [uncoalesced, coalesced, cached] = (await interleaved([
    {
      name: "50 users' dashboards, coalescing off",
      sandbox: slow,
      child: slowUncoalesced,
      run: fifty(slowUncoalesced.url),
    },
    {
      name: "50 users' dashboards, coalescing on",
      sandbox: slow,
      child: slowGateway,
      run: fifty(slowGateway.url),
    },
    {
      name: "50 users' dashboards, coalescing and read cache on",
      sandbox: slow,
      child: slowCached,
      run: fifty(slowCached.url),
    },
  ])) as [Row, Row, Row];

  const sequential = await measured(slow, "client REST dashboard, sequential", undefined, () =>
    clientDashboard(slow.url, "sequential", 10),
  );
  await measured(slow, "client REST dashboard, naive parallel", undefined, () =>
    clientDashboard(slow.url, "parallel", 10),
  );

  const spread = (r: Row) => `${r.rps} (${r.rpsMin}–${r.rpsMax})`;
  // N dashboards of one organization kept current for a minute: @live against a timer.
  const liveSettings = liveDashboardSettings();
  const liveFigures = await liveDashboards(liveSettings);
  // Open live queries on one gateway of its own: memory, upstream calls and event loop per step.
  const capacityFigures = await capacity(capacitySteps());
  const widest = capacityFigures.steps.at(-1);

  const targets = [
    [
      "distinct: ≥ 0.8× the fair floor, every rule on",
      single.rps / fair.rps,
      single.rps / fair.rps >= 0.8,
    ],
    [
      "distinct: ≥ 0.6× the fair floor, coalescing off",
      uncoalescedSingle.rps / fair.rps,
      uncoalescedSingle.rps / fair.rps >= 0.6,
    ],
    [
      "distinct: upstream calls per operation (voicegraph, coalescing off, floors, Tailcall)",
      [single, uncoalescedSingle, raw, fair, tcSingle]
        .map((r) => r.upstreamPerOp.toFixed(2))
        .join(", "),
      [single, uncoalescedSingle, raw, fair, tcSingle].every(
        (r) => r.upstreamPerOp.toFixed(2) === "1.00",
      ),
    ],
    ["distinct: against the raw byte forwarder (no target)", single.rps / raw.rps, true],
    [
      "dashboard: wall ≤ 2× critical path (2 hops × 20 ms)",
      dash.wall / (2 * LATENCY_MS),
      dash.wall <= 4 * LATENCY_MS,
    ],
    [
      "dashboard: ≥ 5× faster than sequential client",
      sequential.p50 / dash.wall,
      sequential.p50 / dash.wall >= 5,
    ],
    [
      "dashboard: upstream requests = distinct resources",
      `${dash.calls} / ${dash.distinct}`,
      dash.calls === dash.distinct,
    ],
    [
      "dashboard: ahead of Tailcall in wall time (alone)",
      `${dash.wall.toFixed(1)} / ${tcDash.wall.toFixed(1)} ms`,
      dash.wall <= tcDash.wall,
    ],
    [
      "dashboard: upstream requests ≤ Tailcall's (alone)",
      `${dash.calls} / ${tcDash.calls}`,
      dash.calls <= tcDash.calls,
    ],
    [
      "dashboard: throughput against Tailcall's",
      dashboard.rps / tcDashboard.rps,
      dashboard.rps >= tcDashboard.rps,
    ],
    [
      "distinct: ≥ 2× Hive Gateway's throughput",
      single.rps / peerSingle.rps,
      single.rps / peerSingle.rps >= 2,
    ],
    ["distinct: against Tailcall's throughput (no target)", single.rps / tcSingle.rps, true],
    [
      "dashboard: ≥ 2× Hive Gateway's throughput",
      dashboard.rps / peerDashboard.rps,
      dashboard.rps / peerDashboard.rps >= 2,
    ],
    [
      "dashboard: upstream requests ≤ Hive Gateway's (alone)",
      `${dash.calls} / ${peerDash.calls}`,
      dash.calls <= peerDash.calls,
    ],
    [
      "50 users: upstream requests per dashboard, coalescing on < off",
      `${coalesced.upstreamPerOp} / ${uncoalesced.upstreamPerOp}`,
      coalesced.upstreamPerOp < uncoalesced.upstreamPerOp,
    ],
    [
      `${liveSettings.dashboards} live dashboards: upstream calls < the timer's / 5`,
      `${liveFigures.live.upstreamCalls} / ${liveFigures.timer.upstreamCalls}`,
      liveFigures.live.upstreamCalls * 5 < liveFigures.timer.upstreamCalls,
    ],
    [
      `capacity: RSS per open live query at ${widest?.liveQueries} ≤ 10 KB`,
      `${widest?.rssKbPerLiveQuery} KB (${widest?.slopeKbPerLiveQuery} KB from the step before)`,
      (widest?.rssKbPerLiveQuery ?? Number.POSITIVE_INFINITY) <= 10,
    ],
    [
      `capacity: upstream calls per interval ≤ the ${capacityFigures.resources} resources followed`,
      capacityFigures.steps.map((step) => step.upstreamCallsPerInterval).join(", "),
      capacityFigures.steps.every(
        (step) => step.upstreamCallsPerInterval <= capacityFigures.resources,
      ),
    ],
    ["RSS at 64 connections, default settings (no target)", peak64, true],
    [
      `container (old space ${CONTAINER_OLD_SPACE_MB} MB): RSS at 64 connections < 256 MB`,
      cappedPeak,
      cappedPeak < 256,
    ],
    [
      `container (old space ${CONTAINER_OLD_SPACE_MB} MB): throughput ≥ 0.9× uncapped`,
      containerRatio,
      containerRatio >= 0.9,
    ],
    ["RSS back near baseline after (≤ 1.2×)", `${after} / ${baseline}`, after <= baseline * 1.2],
  ] as const;

  const table = [
    `${ROUNDS} interleaved rounds of ${SECONDS} s per compared scenario; req/s is the median round (min–max).`,
    "",
    "| scenario | req/s (min–max) | p50 ms | p99 ms | upstream req/op | peak RSS MB | errors |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${spread(r)} | ${r.p50} | ${r.p99} | ${r.upstreamPerOp.toFixed(2)} | ${r.peakRssMb ?? "—"} | ${r.errors} |`,
    ),
    "",
    `Distinct resources (${CONNECTIONS} keys of ${CONNECTIONS} organizations, each connection its own key, agents in turn; ${single.upstreamPerOp.toFixed(2)} upstream calls per operation): voicegraph is ${ratio(single.rps, fair.rps)}× the fair floor (${ratio(uncoalescedSingle.rps, fair.rps)}× with coalescing off), ${ratio(single.rps, raw.rps)}× the raw forwarder, ${ratio(single.rps, tcSingle.rps)}× Tailcall and ${ratio(single.rps, peerSingle.rps)}× Hive Gateway.`,
    "",
    `Warm-up before the distinct rows (req/s of each ${WARM_STEP_SECONDS} s step of its first ${WARM_LOAD_SECONDS} s of that load): ${Object.entries(
      warmed,
    )
      .map(([name, rates]) => `${name} ${rates.join(" → ")}`)
      .join("; ")}.`,
    "",
    `Sharing (one key, one resource, from every connection; a figure of sharing, not of throughput): voicegraph ${sharedSingle.rps} req/s at ${sharedSingle.upstreamPerOp} upstream calls per operation, ${cachedSingle.rps} with the read cache on (${cachedSingle.upstreamPerOp}), Tailcall ${tcShared.rps} (${tcShared.upstreamPerOp}).`,
    "",
    `Dashboard alone (wall p50, upstream requests): voicegraph ${dash.wall.toFixed(1)} ms, ${dash.calls} (${dash.distinct} distinct resources); Tailcall ${tcDash.wall.toFixed(1)} ms, ${tcDash.calls}; Hive Gateway ${peerDash.wall.toFixed(1)} ms, ${peerDash.calls}.`,
    "",
    `50 users of one organization (20 ms upstream): upstream requests per dashboard ${uncoalesced.upstreamPerOp} with coalescing off, ${coalesced.upstreamPerOp} on, ${cached.upstreamPerOp} with the read cache on; ${uncoalesced.rps}, ${coalesced.rps} and ${cached.rps} dashboards/s.`,
    "",
    `One request at a time (median of 1000 over one connection): raw forwarder ${aloneMs.raw} ms, fair floor ${aloneMs.fair} ms, voicegraph ${aloneMs.voicegraph} ms (${signedMs(aloneMs.voicegraph - aloneMs.fair)} against the fair floor), ceiling ${aloneMs.ceiling} ms.`,
    "",
    `Ceiling (bench/bare-execute.ts: the schema, resolvers and upstream client with no yoga and no plugin): ${ratio(ceiling.rps, fair.rps)}× the fair floor; voicegraph is ${ratio(single.rps, ceiling.rps)}× the ceiling.`,
    "",
    describeLiveDashboards(liveSettings, liveFigures),
    "",
    describeCapacity(capacityFigures),
    "",
    `Memory at 64 connections (64 keys, distinct resources, default settings): peak RSS ${peak64} MB at ${at64.rps} req/s (baseline ${baseline} MB, ${after} MB 3 s after); with --max-old-space-size=${CONTAINER_OLD_SPACE_MB}, peak ${cappedPeak} MB; loaded at once in ${ROUNDS} rounds, it served ${containerRatio.toFixed(2)}× the uncapped one's requests (the median round's ratio; rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), ${capped64.rps} against ${uncapped64.rps} req/s, CPU per request ${capped64.cpuMs.toFixed(3)} against ${uncapped64.cpuMs.toFixed(3)} ms.`,
    "",
    "| target | measured | |",
    "|---|---|---|",
    ...targets.map(
      ([name, value, ok]) =>
        `| ${name} | ${typeof value === "number" ? figure(value) : value} | ${ok ? "pass" : "MISS"} |`,
    ),
  ].join("\n");
  console.log(table);
  writeFileSync("bench/results.md", `${table}\n`);
  writeFileSync(
    "bench/results.json",
    `${JSON.stringify(
      {
        commit: execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim(),
        date: new Date().toISOString(),
        rounds: ROUNDS,
        seconds: SECONDS,
        rows,
        aloneMs,
        // Each step's rate under the second it ended at: objects format alike for JSON and Biome.
        warmUp: Object.fromEntries(
          Object.entries(warmed).map(([name, rates]) => [
            name,
            Object.fromEntries(rates.map((rps, i) => [`${(i + 1) * WARM_STEP_SECONDS}s`, rps])),
          ]),
        ),
        dashboard: dash,
        peerDashboard: peerDash,
        tailcallDashboard: tcDash,
        liveDashboards: liveFigures,
        capacity: capacityFigures,
        rssMb: { baseline, peakAt64: peak64, after, cappedPeakAt64: cappedPeak },
        containerRps: { capped: capped64.rps, uncapped: uncapped64.rps },
        // Each round's ratio under its number: objects format alike for JSON and Biome.
        containerRatios: Object.fromEntries(ratios.map((ratio, i) => [`round ${i + 1}`, ratio])),
        containerCpuMsPerRequest: { capped: capped64.cpuMs, uncapped: uncapped64.cpuMs },
        // Objects, not tuples: one formatting for the generated file and the linter.
        targets: targets.map(([target, measured, pass]) => ({ target, measured, pass })),
        // `npm run bench:fleet`'s figures are its own run's: kept as they were.
        fleet: (JSON.parse(readFileSync("bench/results.json", "utf8")) as BenchResults).fleet,
      },
      null,
      2,
    )}\n`,
  );
  // The page is printed from the figures just written: docs/benchmarks.md never drifts from them.
  const written = JSON.parse(readFileSync("bench/results.json", "utf8")) as BenchResults;
  writeFileSync(PAGE, benchmarksPage(written));
} finally {
  await Promise.all(
    [
      proxy,
      floor,
      bare,
      gateway,
      cachedGateway,
      defaultGateway,
      cappedGateway,
      uncoalescedGateway,
      slowGateway,
      slowUncoalesced,
      slowCached,
      peer,
      slowPeer,
      tailcall,
      slowTailcall,
    ].map((child) => child.stop()),
  );
  await Promise.all([fast.close(), slow.close()]);
}
