import { Redis } from "ioredis";
import { freePort, type RedisServer, startRedisServer } from "./redis-server.ts";

const SLOTS = 16_384;

/** A real Redis Cluster of the test's own: masters on free loopback ports, no replicas. */
export interface RedisCluster {
  readonly masters: readonly RedisServer[];
  /** REDIS_CLUSTER_NODES's form: "127.0.0.1:p1,127.0.0.1:p2,…". */
  readonly nodes: string;
  /** Kills every master for real (SIGKILL). */
  kill(): Promise<void>;
  /** Starts every master again, empty, with its slots (its nodes.conf), and waits for the cluster. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `count` cluster-mode servers (each with its own config file and bus port in its temp
 * dir), gives each an equal range of the 16,384 slots and introduces them, as
 * `redis-cli --cluster create … --cluster-replicas 0` does, then waits until every node says
 * the cluster is ok.
 */
export async function startRedisCluster(count = 3): Promise<RedisCluster> {
  const masters: RedisServer[] = [];
  const busPorts: number[] = [];
  for (let i = 0; i < count; i++) {
    const busPort = await freePort();
    busPorts.push(busPort);
    masters.push(
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
  }
  try {
    await form(masters, busPorts);
  } catch (error) {
    for (const master of masters) await master.close();
    throw error;
  }
  return {
    masters,
    nodes: masters.map((master) => `127.0.0.1:${master.port}`).join(","),
    async kill() {
      for (const master of masters) await master.kill();
    },
    async restart() {
      for (const master of masters) await master.restart();
      await untilFormed(masters);
    },
    async close() {
      for (const master of masters) await master.close();
    },
  };
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

/** Waits (bounded) until every node knows every other and serves every slot. */
async function untilFormed(masters: readonly RedisServer[]): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const states: string[] = [];
    await eachNode(masters, async (node) => {
      states.push(String(await node.call("cluster", "info")));
    });
    const formed = states.every(
      (info) =>
        /cluster_state:ok/.test(info) &&
        new RegExp(`cluster_known_nodes:${masters.length}\\b`).test(info) &&
        /cluster_slots_ok:16384/.test(info),
    );
    if (formed) return;
    if (Date.now() > until) throw new Error(`the cluster did not form: ${states.join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Gives each master an equal range of slots, introduces them, and waits for the cluster. */
async function form(masters: readonly RedisServer[], busPorts: readonly number[]): Promise<void> {
  const count = masters.length;
  await eachNode(masters, async (node, index) => {
    const first = Math.floor((SLOTS * index) / count);
    const last = Math.floor((SLOTS * (index + 1)) / count) - 1;
    await node.call("cluster", "addslotsrange", String(first), String(last));
  });
  await eachNode(masters.slice(0, 1), async (node) => {
    for (let i = 1; i < count; i++) {
      const other = masters[i] as RedisServer;
      await node.call("cluster", "meet", "127.0.0.1", String(other.port), String(busPorts[i]));
    }
  });
  await untilFormed(masters);
}
