import { readdirSync, readFileSync } from "node:fs";
import { GATEWAY_NODE_FLAGS, spawnServer } from "./processes.ts";
import {
  BENCH_GATEWAY_ENV,
  benchSandbox,
  type CallFrame,
  frameName,
  loadBench,
  sourceOf,
  topShares,
} from "./profiling.ts";

/**
 * `npm run bench:profile`: voicegraph under `BENCH_QUERY`'s load (bench/profiling.ts; by default
 * distinct resources) at 16 connections with --cpu-prof, `npm start`'s V8 flags and its default
 * settings; prints the top self time, the time by package, and the time inclusive of our own
 * functions (a frame anywhere on the stack).
 */
const dir = "bench/profile";
const sandbox = await benchSandbox();
const gateway = await spawnServer(
  [...GATEWAY_NODE_FLAGS, "--cpu-prof", `--cpu-prof-dir=${dir}`, "src/main.ts"],
  {
    UPSTREAM_URL: sandbox.url,
    PORT: "0",
    LOG_LEVEL: "error",
    ...BENCH_GATEWAY_ENV,
  },
);
try {
  await loadBench(gateway.url, Number(process.env.BENCH_SECONDS ?? 8));
} finally {
  await gateway.stop();
  await sandbox.close();
}

interface Node {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
const file = readdirSync(dir)
  .filter((name) => name.endsWith(".cpuprofile"))
  .sort()
  .at(-1) as string;
const profile = JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as {
  nodes: Node[];
  samples: number[];
};
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const id of profile.samples) {
  const frame = (byId.get(id) as Node).callFrame;
  const key = frameName(frame);
  self.set(key, (self.get(key) ?? 0) + 1);
  const pkg =
    /^(@[^/]+\/[^/]+|[^/:]+)/.exec(sourceOf(frame))?.[1] ?? (frame.functionName || "(native)");
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
}
const total = profile.samples.length;
const top = (map: Map<string, number>, n: number) => topShares(map, total, n);
console.log(`${file}: ${total} samples\n\nTop self time by function:\n${top(self, 25).join("\n")}`);
console.log(`\nBy package / origin:\n${top(byPackage, 20).join("\n")}`);

// Inclusive: each sample counts once for every distinct function of ours (src/) on its stack.
const parent = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
for (const id of profile.samples) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = (byId.get(at) as Node).callFrame;
    if (sourceOf(frame).startsWith("src/")) seen.add(frameName(frame));
  }
  for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
}
console.log(`\nInclusive, our functions (src/):\n${top(inclusive, 40).join("\n")}`);

// By stage: each sample goes to the stage of the nearest frame on its stack that names one (a
// socket write under undici is the upstream call's; under whatwg-node's sendNodeResponse, the
// response's); samples with none are node's alone (HTTP parsing, timers, microtask runs).
const STAGES: Array<[string, (frame: CallFrame) => boolean]> = [
  ["garbage collector", (f) => f.functionName === "(garbage collector)"],
  ["idle", (f) => f.functionName === "(idle)"],
  ["start-up (module loading)", (f) => /modules\/(esm|cjs)|amaro/.test(f.url)],
  ["upstream call: undici (sockets, parsing)", (f) => /undici/.test(f.url)],
  ["upstream call: our client (src/upstream)", (f) => /src\/upstream\//.test(f.url)],
  ["metrics (prom-client)", (f) => /prom-client/.test(f.url)],
  [
    "execution (graphql-jit, graphql-js, Pothos, DataLoader, src/schema)",
    (f) =>
      /graphql-jit|graphql\/execution|@pothos|dataloader|src\/schema\/|graphql-tools\/executor/.test(
        f.url,
      ),
  ],
  [
    "the response out (sendNodeResponse), the fast path",
    (f) => /@whatwg-node\/server\/esm\/utils|src\/gateway\/(fast-path|server)/.test(f.url),
  ],
  ["our rules and context (src/gateway)", (f) => /src\/gateway\//.test(f.url)],
  [
    "yoga, envelop and their promise helpers (parse and validation caches included)",
    (f) =>
      /graphql-yoga|@envelop|promise-helpers|@whatwg-node|graphql\/(language|validation)/.test(
        f.url,
      ),
  ],
];
const stages = new Map<string, number>();
for (const id of profile.samples) {
  const leaf = (byId.get(id) as Node).callFrame;
  let stage =
    leaf.functionName === "(program)" ? "(program)" : "node alone: HTTP parsing, sockets, timers";
  search: for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = (byId.get(at) as Node).callFrame;
    for (const [name, test] of STAGES) {
      if (test(frame)) {
        stage = name;
        break search;
      }
    }
  }
  stages.set(stage, (stages.get(stage) ?? 0) + 1);
}
console.log(
  `\nBy stage (start-up included; a longer BENCH_SECONDS dilutes it):\n${top(stages, 20).join("\n")}`,
);
