import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { Sandbox } from "../src/sandbox/server.ts";
import { type Child, spawnServer } from "./processes.ts";

/**
 * The peer: Hive Gateway serving a supergraph that Mesh Compose generates from the sandbox's own
 * OpenAPI document. Installed for the bench only (bench/peer has its own package.json and lock).
 */
const dir = "bench/peer";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPeer(upstream: Sandbox): Promise<Child> {
  if (!existsSync(`${dir}/node_modules`)) {
    execFileSync("npm", ["ci", "--prefix", dir, "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
  const doc = await (await fetch(`${upstream.url}/v1/openapi.json`)).text();
  writeFileSync(`${dir}/openapi.json`, doc);
  // The supergraph names the upstream's address, so it is composed for this run's sandbox.
  execFileSync(
    process.execPath,
    ["node_modules/@graphql-mesh/compose-cli/esm/bin.js", "-o", "supergraph.graphql"],
    {
      cwd: dir,
      env: { ...process.env, PEER_UPSTREAM: upstream.url },
      stdio: "ignore",
    },
  );
  const port = await freePort();
  return spawnServer(
    [
      `${dir}/node_modules/@graphql-hive/gateway/dist/bin.js`,
      "supergraph",
      `${dir}/supergraph.graphql`,
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
    ],
    { LOG_LEVEL: "error" },
    `http://127.0.0.1:${port}`,
  );
}

/** What the peer's generated schema can ask: root fields only (the OpenAPI document has no links). */
export const PEER_SINGLE = `{ getAgent(agentId: "agt_acme_reception") { ... on Agent { id name status greeting } } }`;
