import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { ConfigError } from "../env.ts";
import type { RedisNode } from "./redis-subscriber.ts";

/** Every command the fleet sends, in scripts or not (rate-limiter-flexible's own included). */
const NEEDED = [
  "get",
  "set",
  "mget",
  "del",
  "exists",
  "incr",
  "incrby",
  "expire",
  "pexpire",
  "ttl",
  "pttl",
  "zadd",
  "zrangebyscore",
  "zremrangebyscore",
  "zremrangebyrank",
  "publish",
  "subscribe",
  "eval",
  "evalsha",
];
const PROBE = "return 1";

/**
 * Refuses, at start-up, a store that cannot hold the fleet's state, with one line saying what to
 * set: a cluster's node given as one server (or the other way round), a command the fleet needs
 * missing (renamed or disabled), or a `maxmemory-policy` that evicts keys (every fleet key has
 * a TTL, so volatile-* evicts leases and versions as surely as allkeys-*). A store that cannot
 * be reached within `waitMs` is not refused: the gateway starts on its own state, as it would
 * when Redis goes away later. Each master of a cluster is checked.
 */
export async function checkFleetStore(options: {
  url?: string | undefined;
  clusterNodes?: readonly RedisNode[] | undefined;
  waitMs: number;
}): Promise<"fit" | "unreachable"> {
  const setting = options.clusterNodes ? "REDIS_CLUSTER_NODES" : "REDIS_URL";
  const targets: Array<string | RedisNode> = options.clusterNodes
    ? [...options.clusterNodes]
    : [options.url ?? ""];
  for (const target of targets) {
    const probe = await connect(target, options.waitMs);
    if (!probe) continue;
    try {
      const inCluster = field(await probe.info("cluster"), "cluster_enabled") === "1";
      const where = `${probe.options.host}:${probe.options.port}`;
      if (!options.clusterNodes && inCluster) {
        throw new ConfigError(
          `REDIS_URL names ${where}, a node of a Redis Cluster: set REDIS_CLUSTER_NODES=host:port,… (its nodes) instead of REDIS_URL`,
        );
      }
      if (options.clusterNodes && !inCluster) {
        throw new ConfigError(
          `REDIS_CLUSTER_NODES names ${where}, a server without cluster mode: set REDIS_URL=redis://${where} instead`,
        );
      }
      if (!inCluster) {
        await checkServer(probe, setting);
        return "fit";
      }
      for (const master of mastersOf(String(await probe.call("cluster", "nodes")))) {
        const node = await connect(master, options.waitMs);
        if (!node) continue;
        try {
          await checkServer(node, setting);
        } finally {
          node.disconnect();
        }
      }
      return "fit";
    } finally {
      probe.disconnect();
    }
  }
  return "unreachable";
}

async function connect(target: string | RedisNode, waitMs: number): Promise<Redis | undefined> {
  const settings = {
    lazyConnect: true,
    connectTimeout: waitMs,
    commandTimeout: waitMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  };
  const probe =
    typeof target === "string"
      ? new Redis(target, settings)
      : new Redis({ ...target, ...settings });
  probe.on("error", () => undefined);
  try {
    await probe.connect();
    return probe;
  } catch {
    probe.disconnect();
    return undefined;
  }
}

async function checkServer(server: Redis, setting: string): Promise<void> {
  const where = `${server.options.host}:${server.options.port}`;
  const policy = field(await server.info("memory"), "maxmemory_policy");
  if (policy !== undefined && policy !== "noeviction") {
    throw new ConfigError(
      `${setting}: ${where} has maxmemory-policy ${policy}, which evicts the fleet's leases and versions (every key has a TTL): set maxmemory-policy noeviction`,
    );
  }
  const missing = await missingCommands(server);
  if (missing.length > 0) {
    throw new ConfigError(
      `${setting}: ${where} lacks ${missing.map((name) => name.toUpperCase()).join(", ")} (renamed or disabled): the fleet needs ${NEEDED.map((name) => name.toUpperCase()).join(", ")}; enable them (rename-command, ACL)`,
    );
  }
}

/** The needed commands the server does not know, and the scripting it refuses to run. */
async function missingCommands(server: Redis): Promise<string[]> {
  const missing = new Set<string>();
  const known = await reply(server, "command", "info", ...NEEDED);
  if (Array.isArray(known)) {
    known.forEach((entry, index) => {
      if (entry === null) missing.add(NEEDED[index] as string);
    });
  }
  // COMMAND itself may be renamed away: running a script, by text and by digest, tells.
  if ((await reply(server, "eval", PROBE, "0")) !== 1) missing.add("eval");
  const sha = createHash("sha1").update(PROBE).digest("hex");
  if ((await reply(server, "evalsha", sha, "0")) !== 1) missing.add("evalsha");
  return NEEDED.filter((name) => missing.has(name));
}

/** A probe's answer, or undefined when the server refuses it: here a refusal is the finding. */
async function reply(server: Redis, command: string, ...args: string[]): Promise<unknown> {
  try {
    return await server.call(command, ...args);
  } catch {
    return undefined;
  }
}

/** The masters of a cluster, from CLUSTER NODES. */
function mastersOf(nodes: string): RedisNode[] {
  return nodes
    .split("\n")
    .map((line) => line.split(" "))
    .filter((parts) => parts[2]?.split(",").includes("master") && !parts[2].includes("fail"))
    .map((parts) => {
      const address = (parts[1] ?? "").split("@")[0] ?? "";
      const colon = address.lastIndexOf(":");
      return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)) };
    });
}

function field(info: string, name: string): string | undefined {
  return new RegExp(`^${name}:(.*)$`, "m").exec(info)?.[1]?.trim();
}
