import { Redis } from "ioredis";
import { freePort, type RedisServer, startRedisServer } from "./redis-server.ts";

const SLOTS = 16_384;

/** A real Redis Cluster of the test's own, on free loopback ports. */
export interface RedisCluster {
  /** The masters it was formed with, each holding an equal range of slots. */
  readonly masters: readonly RedisServer[];
  /** Each master's replica (replicas[i] follows masters[i]), when asked for. */
  readonly replicas: readonly RedisServer[];
  /** REDIS_CLUSTER_NODES's form: "127.0.0.1:p1,127.0.0.1:p2,…" (the masters). */
  readonly nodes: string;
  /**
   * Moves the slot `key` lands in to the next master, as `redis-cli --cluster reshard` does:
   * importing and migrating, its keys in batches (with a pause between, so commands meet the
   * slot half moved), then the slot given to its new master on every node.
   */
  moveSlotOf(key: string, pauseMs: number): Promise<void>;
  /** Kills every node for real (SIGKILL). */
  kill(): Promise<void>;
  /** Starts every node again, empty, with its slots (its nodes.conf), and waits for the cluster. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts cluster-mode servers (each with its own config file and bus port in its temp dir),
 * gives each of `count` masters an equal range of the 16,384 slots, introduces every node and
 * makes the rest replicas, as `redis-cli --cluster create … --cluster-replicas N` does, then
 * waits until every node says the cluster is ok.
 */
export async function startRedisCluster(count = 3, options: { replicas?: boolean } = {}) {
  const nodes: RedisServer[] = [];
  const busPorts: number[] = [];
  const total = options.replicas ? 2 * count : count;
  try {
    for (let i = 0; i < total; i++) {
      // The bus port, like the server's, may be taken before the node binds it: another one then.
      for (let attempt = 1; ; attempt++) {
        const busPort = await freePort();
        try {
          nodes.push(
            await startRedisServer([
              "--cluster-enabled",
              "yes",
              "--cluster-config-file",
              "nodes.conf",
              "--cluster-port",
              String(busPort),
              "--cluster-node-timeout",
              "2000",
            ]),
          );
          busPorts.push(busPort);
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    }
    await form(nodes, busPorts, count);
  } catch (error) {
    for (const node of nodes) await node.close();
    throw error;
  }
  const cluster: RedisCluster = {
    masters: nodes.slice(0, count),
    replicas: nodes.slice(count),
    nodes: nodes
      .slice(0, count)
      .map((master) => `127.0.0.1:${master.port}`)
      .join(","),
    moveSlotOf: (key, pauseMs) => moveSlot(nodes.slice(0, count), key, pauseMs),
    async kill() {
      for (const node of nodes) await node.kill();
    },
    async restart() {
      for (const node of nodes) await node.restart();
      await untilFormed(nodes);
    },
    async close() {
      for (const node of nodes) await node.close();
    },
  };
  return cluster;
}

async function eachNode(
  servers: readonly RedisServer[],
  run: (node: Redis, index: number) => Promise<void>,
): Promise<void> {
  await Promise.all(
    servers.map(async (server, index) => {
      const node = new Redis(server.url);
      try {
        await run(node, index);
      } finally {
        node.disconnect();
      }
    }),
  );
}

/** Waits (bounded) until every node knows every other, serves every slot, and has its role. */
async function untilFormed(nodes: readonly RedisServer[], masters?: number): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const states: string[] = [];
    await eachNode(nodes, async (node) => {
      states.push(`${await node.call("cluster", "info")}${await node.info("replication")}`);
    });
    const formed = states.every(
      (info, index) =>
        /cluster_state:ok/.test(info) &&
        new RegExp(`cluster_known_nodes:${nodes.length}\\b`).test(info) &&
        /cluster_slots_ok:16384/.test(info) &&
        (masters === undefined || index < masters || /master_link_status:up/.test(info)),
    );
    if (formed) return;
    if (Date.now() > until) throw new Error(`the cluster did not form: ${states.join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Gives each master an equal range of slots, introduces every node, and pairs the replicas. */
async function form(nodes: readonly RedisServer[], busPorts: readonly number[], count: number) {
  await eachNode(nodes.slice(0, count), async (node, index) => {
    const first = Math.floor((SLOTS * index) / count);
    const last = Math.floor((SLOTS * (index + 1)) / count) - 1;
    await node.call("cluster", "addslotsrange", String(first), String(last));
  });
  await eachNode(nodes.slice(0, 1), async (node) => {
    for (let i = 1; i < nodes.length; i++) {
      const other = nodes[i] as RedisServer;
      await node.call("cluster", "meet", "127.0.0.1", String(other.port), String(busPorts[i]));
    }
  });
  if (nodes.length === count) {
    await untilFormed(nodes);
    return;
  }
  const ids: string[] = [];
  await eachNode(nodes.slice(0, count), async (node, index) => {
    ids[index] = String(await node.call("cluster", "myid"));
  });
  // A replica can follow a master only once it knows it.
  const until = Date.now() + 20_000;
  await eachNode(nodes.slice(count), async (node, index) => {
    for (;;) {
      try {
        await node.call("cluster", "replicate", ids[index] as string);
        return;
      } catch (error) {
        if (Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  await untilFormed(nodes, count);
}

async function moveSlot(masters: readonly RedisServer[], key: string, pauseMs: number) {
  const links = masters.map((master) => new Redis(master.url));
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
  try {
    const first = links[0] as Redis;
    const slot = Number(await first.call("cluster", "keyslot", key));
    const ids = await Promise.all(
      links.map(async (link) => String(await link.call("cluster", "myid"))),
    );
    const owner = String(await first.call("cluster", "nodes"))
      .split("\n")
      .map((line) => line.split(" "))
      .find((fields) =>
        fields.slice(8).some((range) => {
          const [from, to = from] = range.split("-").map(Number);
          return from !== undefined && slot >= from && slot <= (to as number);
        }),
      )?.[0];
    const source = ids.indexOf(owner ?? "");
    const target = (source + 1) % masters.length;
    const from = links[source] as Redis;
    const to = links[target] as Redis;
    await to.call("cluster", "setslot", String(slot), "importing", ids[source] as string);
    await from.call("cluster", "setslot", String(slot), "migrating", ids[target] as string);
    await pause();
    for (;;) {
      const keys = (await from.call("cluster", "getkeysinslot", String(slot), "2")) as string[];
      if (keys.length === 0) break;
      const port = String((masters[target] as RedisServer).port);
      await from.call("migrate", "127.0.0.1", port, "", "0", "5000", "KEYS", ...keys);
      await pause();
    }
    for (const link of links) {
      await link.call("cluster", "setslot", String(slot), "node", ids[target] as string);
    }
  } finally {
    for (const link of links) link.disconnect();
  }
}
