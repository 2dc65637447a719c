import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { createFleetRedis } from "../src/fleet/redis.ts";
import { createGateway } from "../src/gateway/create-gateway.ts";
import { listen } from "../src/gateway/http/server.ts";
import { DEMO_KEYS } from "../src/sandbox/seed-data.ts";
import { startSandbox } from "../src/sandbox/server.ts";
import { createUpstreamClient } from "../src/upstream/client.ts";
import { DASHBOARD } from "./queries.ts";

/**
 * Upstream calls per operation for a fleet of 1, 3, 6 and 10 gateways on one Redis, with fleet
 * flights on and off: 48 connections ask one organization's dashboard with one key, spread over
 * the gateways in turn, against an upstream 20 ms away. A figure of sharing, not of throughput:
 * every gateway runs in this one process. `npm run bench:fleet`.
 */

const CONNECTIONS = 48;
const LATENCY_MS = 20;
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 3);
const SIZES = [1, 3, 6, 10];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child = spawn(
    process.env.FLEET_REDIS_SERVER || "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

async function round(size: number, flights: boolean, redisUrl: string, upstreamUrl: string) {
  const gateways: Array<{
    redis: ReturnType<typeof createFleetRedis>;
    upstream: ReturnType<typeof createUpstreamClient>;
    server: Awaited<ReturnType<typeof listen>>;
  }> = [];
  for (let i = 0; i < size; i++) {
    const redis = createFleetRedis({ url: redisUrl, prefix: `bench${size}${flights}:` });
    const upstream = createUpstreamClient({ baseUrl: upstreamUrl });
    const gateway = createGateway({
      upstream,
      fleet: { redis },
      cursorSecret: "a-bench-fleet-cursor-secret-of-32-characters",
      logging: false,
      sharing: { fleetFlights: flights },
    });
    const server = await listen(gateway, 0, "127.0.0.1");
    gateways.push({ redis, upstream, server });
  }
  // Every connection to Redis up before the load begins.
  while (!gateways.every((gateway) => gateway.redis.available())) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const body = JSON.stringify({ query: DASHBOARD });
  const send = (connection: number) =>
    fetch(`${gateways[connection % size]?.server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${DEMO_KEYS.acme}` },
      body,
    }).then((response) => response.text());
  // The key proves itself on every gateway first.
  for (let i = 0; i < size; i++) await send(i);
  return { gateways, send };
}

const redis = await startRedis();
const sandbox = await startSandbox({ port: 0, rateLimit: 1e9, latencyMs: LATENCY_MS });
const rows: string[] = [];
try {
  for (const size of SIZES) {
    const figures: string[] = [];
    for (const flights of [false, true]) {
      const { gateways, send } = await round(size, flights, redis.url, sandbox.url);
      sandbox.clearRequests();
      let operations = 0;
      const until = Date.now() + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async (_, connection) => {
          while (Date.now() < until) {
            await send(connection);
            operations += 1;
          }
        }),
      );
      const calls = sandbox.requests.length;
      figures.push((calls / operations).toFixed(2));
      for (const gateway of gateways) {
        await gateway.server.close();
        await gateway.upstream.close();
        await gateway.redis.close();
      }
    }
    rows.push(`| ${size} | ${figures[0]} | ${figures[1]} |`);
  }
} finally {
  await sandbox.close();
  redis.stop();
}
console.log("| gateways | calls/op, flights off | calls/op, flights on |");
console.log("| --- | --- | --- |");
for (const row of rows) console.log(row);
