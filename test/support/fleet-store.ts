import { Cluster, Redis } from "ioredis";
import type { FleetRedisOptions } from "../../src/fleet/redis.ts";
import { type RedisCluster, startRedisCluster } from "./redis-cluster.ts";
import { type RedisServer, startRedisServer } from "./redis-server.ts";

/**
 * The store the fleet suite runs on (FLEET_STORE): one server (the default), or a real
 * three-master Redis Cluster. scripts/test-fleet.ts runs the suite on each.
 */
export const FLEET_STORE: "server" | "cluster" =
  process.env.FLEET_STORE === "cluster" ? "cluster" : "server";

/** The fleet's store as a test sees it, whichever its form. */
export interface FleetStore {
  readonly form: "server" | "cluster";
  /** createFleetRedis's options to reach it. */
  readonly connection: Pick<FleetRedisOptions, "url" | "clusterNodes">;
  /** What `npm start` is given to reach it (REDIS_URL or REDIS_CLUSTER_NODES). */
  readonly env: Record<string, string>;
  /** Each server (a cluster's masters): their INFO, their keys, their settings. */
  readonly servers: readonly RedisServer[];
  /** A client of the test's own (it disconnects it). */
  client(): Redis | Cluster;
  /** Every key on every server matching `pattern`, sorted. */
  keys(pattern?: string): Promise<string[]>;
  /** Runs one command on every server, e.g. ["info", "errorstats"]: their answers in order. */
  onEachServer(...command: string[]): Promise<unknown[]>;
  /**
   * A cluster only: moves the slot of `key` to another master while the fleet runs. The client
   * follows it by ASK and MOVED, which the close then allows (CROSSSLOT never).
   */
  moveSlotOf(key: string, pauseMs?: number): Promise<void>;
  /**
   * A cluster only: the test changes its topology (a master dies and its replica takes over),
   * so MOVED and ASK are how the client follows; the close then checks for CROSSSLOT only.
   */
  redirectionsExpected(): void;
  /** Kills every server for real (SIGKILL). */
  kill(): Promise<void>;
  /** Starts them again, empty (a cluster with its slots). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The store of FLEET_STORE's form; a cluster's masters with a replica each if asked. */
export async function startFleetStore(
  form = FLEET_STORE,
  options: { replicas?: boolean } = {},
): Promise<FleetStore> {
  const cluster: RedisCluster | undefined =
    form === "cluster" ? await startRedisCluster(3, options) : undefined;
  const single = cluster ? undefined : await startRedisServer();
  const servers = cluster ? cluster.masters : [single as RedisServer];
  const seeds = servers.map((server) => ({ host: "127.0.0.1", port: server.port }));
  // A slot moved, or another change the client follows by redirections.
  let slotMoved = false;
  const ask = async (server: RedisServer, command: readonly string[]) => {
    // One try: a server a test killed answers nothing, at once.
    const node = new Redis(server.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    node.on("error", () => undefined);
    try {
      return await node.call(command[0] as string, ...command.slice(1));
    } finally {
      node.disconnect();
    }
  };
  const onEachServer = (...command: string[]) =>
    Promise.all(servers.map((server) => ask(server, command)));
  return {
    form,
    connection: cluster ? { clusterNodes: seeds } : { url: (single as RedisServer).url },
    env: cluster
      ? { REDIS_CLUSTER_NODES: cluster.nodes }
      : { REDIS_URL: (single as RedisServer).url },
    servers,
    client: () => (cluster ? new Cluster(seeds) : new Redis((single as RedisServer).url)),
    async keys(pattern = "*") {
      const answers = await onEachServer("keys", pattern);
      return answers.flatMap((keys) => keys as string[]).sort();
    },
    onEachServer,
    async moveSlotOf(key, pauseMs = 200) {
      if (!cluster) throw new Error("one server has no slots to move");
      slotMoved = true;
      await cluster.moveSlotOf(key, pauseMs);
    },
    redirectionsExpected() {
      slotMoved = true;
    },
    kill: () => (cluster ? cluster.kill() : (single as RedisServer).kill()),
    restart: () => (cluster ? cluster.restart() : (single as RedisServer).restart()),
    async close() {
      if (!cluster) return (single as RedisServer).close();
      // Whatever a test did, the fleet never sent a command to the wrong master or across slots.
      // Every node still up (a test may have killed a master, and promoted its replica).
      const answers = [...cluster.masters, ...cluster.replicas].map((server) =>
        ask(server, ["info", "errorstats", "commandstats"]).catch(() => ""),
      );
      const stats = (await Promise.all(answers)).map(String).join("\n");
      await cluster.close();
      const crossed = stats.match(
        slotMoved ? /errorstat_CROSSSLOT:.*/g : /errorstat_(MOVED|ASK|CROSSSLOT):.*/g,
      );
      if (crossed) {
        const refused = stats.match(/^cmdstat_\S+:.*rejected_calls=[1-9].*$/gm) ?? [];
        throw new Error(`the cluster's masters counted ${[...crossed, ...refused].join(", ")}`);
      }
    },
  };
}
