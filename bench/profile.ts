import { readdirSync, readFileSync } from "node:fs";
import { startSandbox } from "../src/sandbox/server.ts";
import { spawnServer } from "./processes.ts";
import { type CallFrame, frameName, loadSingle, sourceOf, topShares } from "./profiling.ts";

/** `npm run bench:profile`: voicegraph single-resource under 16 connections with --cpu-prof; prints the top self-time. */
const dir = "bench/profile";
const sandbox = await startSandbox({ rateLimit: 1e9 });
const gateway = await spawnServer(["--cpu-prof", `--cpu-prof-dir=${dir}`, "src/main.ts"], {
  UPSTREAM_URL: sandbox.url,
  PORT: "0",
  LOG_LEVEL: "error",
});
try {
  await loadSingle(gateway.url, Number(process.env.BENCH_SECONDS ?? 8));
} finally {
  await gateway.stop();
  await sandbox.close();
}

interface Node {
  id: number;
  callFrame: CallFrame;
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
