import { writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { DEMO_KEYS, SEED_IDS } from "../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { clientDashboard } from "./client-dashboard.ts";
import { load, medianAlone } from "./load.ts";
import { PEER_DASHBOARD, PEER_SINGLE, startPeer } from "./peer.ts";
import { type Child, GATEWAY_NODE_FLAGS, rssMb, spawnServer } from "./processes.ts";
import { DASHBOARD, SINGLE } from "./queries.ts";

/** `npm run bench`: every scenario of issue 11 in one run, side by side (README: Benchmarks). */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const LATENCY_MS = 20;
const auth = { authorization: `Bearer ${DEMO_KEYS.acme}` };
const json = { ...auth, "content-type": "application/json" };

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  upstreamPerOp: number;
  peakRssMb: number | null;
  errors: number;
}
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

async function measured(
  sandbox: Sandbox,
  scenario: string,
  child: Child | undefined,
  run: () => Promise<{ rps: number; p50: number; p99: number; requests: number; errors: number }>,
): Promise<Row> {
  await settled(sandbox);
  sandbox.clearRequests();
  const result = await run();
  const row = {
    scenario,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    upstreamPerOp: Math.round((sandbox.requests.length / Math.max(1, result.requests)) * 10) / 10,
    peakRssMb: child ? rssMb(child.pid, "VmHWM") : null,
    errors: result.errors,
  };
  rows.push(row);
  console.error(`  ${scenario}: ${row.rps} req/s, p50 ${row.p50} ms`);
  return row;
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);

const gql = (url: string, query: string) => ({
  url: `${url}/graphql`,
  connections: CONNECTIONS,
  seconds: SECONDS,
  method: "POST" as const,
  headers: json,
  body: JSON.stringify({ query }),
});

/** One operation; its data, or a thrown error when the gateway answers errors. */
async function answer(url: string, query: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ query }),
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

const fast = await startSandbox({ rateLimit: 1e9 });
const slow = await startSandbox({ rateLimit: 1e9, latencyMs: LATENCY_MS });
const gatewayEnv = (upstream: Sandbox) => ({
  UPSTREAM_URL: upstream.url,
  PORT: "0",
  LOG_LEVEL: "error",
  MAX_UPSTREAM_CALLS: "1000",
});
const proxy = await spawnServer(["bench/raw-proxy.ts", fast.url]);
const bare = await spawnServer([...GATEWAY_NODE_FLAGS, "bench/bare-execute.ts", fast.url]);
const gateway = await spawnServer([...GATEWAY_NODE_FLAGS, "src/main.ts"], gatewayEnv(fast));
const slowGateway = await spawnServer([...GATEWAY_NODE_FLAGS, "src/main.ts"], gatewayEnv(slow));
const peer = await startPeer(fast);
const slowPeer = await startPeer(slow);
try {
  const agentPath = `/v1/agents/${SEED_IDS.acmeAgent}`;
  console.error(`bench: ${SECONDS} s per scenario, ${CONNECTIONS} connections`);
  await load({
    url: `${gateway.url}/graphql`,
    connections: 4,
    seconds: 1,
    method: "POST",
    headers: json,
    body: JSON.stringify({ query: SINGLE }),
  }); // warm-up
  await measured(fast, "direct REST GET /v1/agents/{id}", undefined, () =>
    load({ url: fast.url + agentPath, connections: CONNECTIONS, seconds: SECONDS, headers: auth }),
  );
  const raw = await measured(fast, "raw undici proxy", proxy, () =>
    load({ url: proxy.url + agentPath, connections: CONNECTIONS, seconds: SECONDS, headers: auth }),
  );
  const single = await measured(fast, "voicegraph agent(id)", gateway, () =>
    load(gql(gateway.url, SINGLE)),
  );
  // One request at a time: the latency each adds with no queue in front of it.
  const post = { method: "POST" as const, headers: json, body: JSON.stringify({ query: SINGLE }) };
  const alone = {
    raw: await medianAlone(proxy.url + agentPath, { headers: auth }),
    voicegraph: await medianAlone(`${gateway.url}/graphql`, post),
    ceiling: await medianAlone(`${bare.url}/graphql`, post),
  };
  const ceiling = await measured(fast, "ceiling: its schema on bare node:http, no yoga", bare, () =>
    load(gql(bare.url, SINGLE)),
  );

  // The generated field answers a union (Agent | Error): an upstream 404 is data, not an error.
  const peerAgent = (await answer(peer.url, PEER_SINGLE)).getAgent as { id?: string } | null;
  expect(peerAgent?.id === SEED_IDS.acmeAgent, "getAgent did not answer the agent", peerAgent);
  const peerSingle = await measured(fast, "peer Hive Gateway getAgent(agentId)", peer, () =>
    load(gql(peer.url, PEER_SINGLE)),
  );

  // RSS at 64 connections, and after the load stops.
  const baseline = rssMb(gateway.pid, "VmRSS");
  await load({ ...gql(gateway.url, SINGLE), connections: 64 });
  const peak64 = rssMb(gateway.pid, "VmHWM");
  await sleep(3000);
  const after = rssMb(gateway.pid, "VmRSS");

  // The dashboard, 20 ms upstream latency: one operation alone (wall time, upstream calls), then under load.
  await postOnce(slowGateway.url, DASHBOARD);
  await settled(slow);
  slow.clearRequests();
  const walls: number[] = [];
  for (let i = 0; i < 10; i++) walls.push(await postOnce(slowGateway.url, DASHBOARD));
  const dashCalls = slow.requests.length / 10;
  const distinct = new Set(slow.requests.map((r) => r.url)).size;
  const dashWall = walls.sort((a, b) => a - b)[5] as number;
  const dashboard = await measured(slow, "voicegraph dashboard (20 ms upstream)", slowGateway, () =>
    load(gql(slowGateway.url, DASHBOARD)),
  );

  // The peer's dashboard: checked once (the links answer, not Error members or nulls), then the same.
  const peerData = await answer(slowPeer.url, PEER_DASHBOARD);
  checkPeerDashboard(peerData);
  await settled(slow);
  slow.clearRequests();
  const peerWalls: number[] = [];
  for (let i = 0; i < 10; i++) peerWalls.push(await postOnce(slowPeer.url, PEER_DASHBOARD));
  const peerDashCalls = slow.requests.length / 10;
  const peerDashWall = peerWalls.sort((a, b) => a - b)[5] as number;
  const peerDashboard = await measured(
    slow,
    "peer Hive Gateway dashboard (20 ms upstream)",
    slowPeer,
    () => load(gql(slowPeer.url, PEER_DASHBOARD)),
  );
  const sequential = await measured(slow, "client REST dashboard, sequential", undefined, () =>
    clientDashboard(slow.url, "sequential", 10),
  );
  await measured(slow, "client REST dashboard, naive parallel", undefined, () =>
    clientDashboard(slow.url, "parallel", 10),
  );

  const targets = [
    ["single: throughput ≥ 0.5× raw proxy", single.rps / raw.rps, single.rps / raw.rps >= 0.5],
    ["single: p50 added ≤ 1 ms over raw proxy", single.p50 - raw.p50, single.p50 - raw.p50 <= 1],
    [
      "dashboard: wall ≤ 2× critical path (2 hops × 20 ms)",
      dashWall / (2 * LATENCY_MS),
      dashWall <= 4 * LATENCY_MS,
    ],
    [
      "dashboard: ≥ 5× faster than sequential client",
      sequential.p50 / dashWall,
      sequential.p50 / dashWall >= 5,
    ],
    [
      "dashboard: upstream requests = distinct resources",
      `${dashCalls} / ${distinct}`,
      dashCalls === distinct,
    ],
    ["RSS at 64 connections ≤ 150 MB", peak64, peak64 <= 150],
    ["RSS back near baseline after (≤ 1.2×)", `${after} / ${baseline}`, after <= baseline * 1.2],
    [
      "single: ≥ 2× the peer's throughput",
      single.rps / peerSingle.rps,
      single.rps / peerSingle.rps >= 2,
    ],
    [
      "single: upstream requests ≤ the peer's",
      `${single.upstreamPerOp} / ${peerSingle.upstreamPerOp}`,
      single.upstreamPerOp <= peerSingle.upstreamPerOp,
    ],
    [
      "dashboard: ≥ 2× the peer's throughput",
      dashboard.rps / peerDashboard.rps,
      dashboard.rps / peerDashboard.rps >= 2,
    ],
    // Counted on one operation alone: under load the operations cut off at the end inflate both.
    [
      "dashboard: upstream requests ≤ the peer's (one operation alone)",
      `${dashCalls} / ${peerDashCalls}`,
      dashCalls <= peerDashCalls,
    ],
  ] as const;

  const table = [
    "| scenario | req/s | p50 ms | p99 ms | upstream req/op | peak RSS MB | errors |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.upstreamPerOp} | ${r.peakRssMb ?? "—"} | ${r.errors} |`,
    ),
    "",
    `Dashboard alone: wall p50 ${Math.round(dashWall)} ms, ${dashCalls} upstream requests, ${distinct} distinct resources` +
      ` (the peer: wall p50 ${Math.round(peerDashWall)} ms, ${peerDashCalls} upstream requests).`,
    "",
    // Not targets: how the single resource's cost splits between the schema and the server, and
    // what one request adds without a queue.
    `One request at a time (median of 1000 over one connection): raw proxy ${alone.raw} ms, voicegraph ${alone.voicegraph} ms (+${(alone.voicegraph - alone.raw).toFixed(2)} ms), ceiling ${alone.ceiling} ms.`,
    "",
    `Ceiling (bench/bare-execute.ts: the schema, resolvers and upstream client with no yoga and no plugin): ${ratio(ceiling.rps, raw.rps)}× the raw proxy; voicegraph is ${ratio(single.rps, ceiling.rps)}× the ceiling.`,
    "",
    "| target | measured | |",
    "|---|---|---|",
    ...targets.map(
      ([name, value, ok]) =>
        `| ${name} | ${typeof value === "number" ? value.toFixed(2) : value} | ${ok ? "pass" : "MISS"} |`,
    ),
  ].join("\n");
  console.log(table);
  writeFileSync("bench/results.md", `${table}\n`);
  writeFileSync(
    "bench/results.json",
    `${JSON.stringify(
      {
        rows,
        aloneMs: alone,
        dashboard: { wallMs: dashWall, upstreamRequests: dashCalls, distinctResources: distinct },
        peerDashboard: { wallMs: peerDashWall, upstreamRequests: peerDashCalls },
        rssMb: { baseline, peakAt64: peak64, after },
        // Objects, not tuples: one formatting for the generated file and the linter.
        targets: targets.map(([target, measured, pass]) => ({ target, measured, pass })),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await Promise.all([
    proxy.stop(),
    bare.stop(),
    gateway.stop(),
    slowGateway.stop(),
    peer.stop(),
    slowPeer.stop(),
  ]);
  await Promise.all([fast.close(), slow.close()]);
}
