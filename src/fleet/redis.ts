import { Cluster, Redis } from "ioredis";
import { createFleetChannels, type FleetChannels } from "./fleet-channel.ts";
import { FLEET_REDIS_DEFAULTS } from "./redis-defaults.ts";
import { RedisFailures } from "./redis-failures.ts";
import { type FleetKeyNamer, fleetKeyNamer } from "./redis-keys.ts";
import { createFleetSubscriber, type RedisNode } from "./redis-subscriber.ts";

/** How often a cluster's masters are asked whether they answer. */
export const HEARTBEAT_MS = 500;

/** One server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES): the commands are the same. */
export type FleetClient = Redis | Cluster;

/** What `/readyz` says of the fleet's store. */
export type FleetRedisState = "shared" | "degraded" | "unreachable";

/**
 * The fleet's one Redis connection, shared by every piece of fleet-wide state: APQ, the memory
 * of upstream 429s, session limits, logouts, poller leases and the read cache. Redis trouble never takes
 * the gateway down: every command fails within `commandTimeoutMs` instead of queueing while
 * Redis is away, a command Redis refuses is reported (never taken for a miss) and degrades the
 * shared state for a while, and `available` says whether callers should use shared state or
 * their own in-process fallback right now. Every key is under `prefix` (REDIS_PREFIX).
 */
export interface FleetRedis {
  /** The command connection (ioredis). Never used for SUBSCRIBE: see `channels`. */
  readonly client: FleetClient;
  readonly form: "server" | "cluster";
  /** REDIS_PREFIX, e.g. "voicegraph:". */
  readonly prefix: string;
  /** A prefixed, hash-tagged name: key("seq", watch) → "voicegraph:seq:{<watch>}" (redis-keys.ts). */
  readonly key: FleetKeyNamer;
  /** Whether shared state is usable now: connected, and no refusal in the last few seconds. */
  available(): boolean;
  state(): FleetRedisState;
  /** The last refusal while `state()` is "degraded". */
  degradedReason(): string | undefined;
  /** Every failed command, by kind (redis-failures.ts). */
  readonly failures: RedisFailures;
  /**
   * Runs one command (or a few): its answer, or `onFailure` once the failure is reported.
   * The one way the fleet's code meets a failed command: a refusal is counted, logged and shown,
   * never mistaken for a miss. A rejection that is not an Error (a limiter's own answer) passes.
   */
  attempt<T, F>(command: () => Promise<T>, onFailure: F): Promise<T | F>;
  /**
   * Shared or local, decided in one place: `shared` on Redis while it is available, else (or
   * when it fails, the failure reported as `attempt` reports it) the instance's own `local`.
   */
  sharedOrLocal<T, L>(shared: () => Promise<T>, local: () => L | Promise<L>): Promise<T | L>;
  /** Told on every change of `available()` (logged once per change, shown in /metrics and /readyz). */
  onAvailabilityChange(listener: (available: boolean) => void): () => void;
  /**
   * The instance's fleet-wide channels (fleet-channel.ts), all over one second connection in
   * subscriber mode, made on first use. On a cluster it is one node's: a classic PUBLISH
   * reaches every node (redis-subscriber.ts).
   */
  readonly channels: FleetChannels;
  close(): Promise<void>;
}

export interface FleetRedisOptions {
  /** redis:// or rediss:// (REDIS_URL): one server. */
  url?: string;
  /** A Redis Cluster's seed nodes (REDIS_CLUSTER_NODES), instead of `url`. */
  clusterNodes?: readonly RedisNode[];
  /** Default "voicegraph:". */
  prefix?: string;
  /** Longest any Redis command may take before the caller falls back; default 250 ms. */
  commandTimeoutMs?: number;
}

export function createFleetRedis(options: FleetRedisOptions): FleetRedis {
  const prefix = options.prefix ?? FLEET_REDIS_DEFAULTS.prefix;
  const commandTimeout = options.commandTimeoutMs ?? FLEET_REDIS_DEFAULTS.commandTimeoutMs;
  const connection = {
    commandTimeout,
    connectTimeout: Math.max(commandTimeout, 1000),
    maxRetriesPerRequest: 0,
  };
  // Keep trying to come back, at most every 2 s.
  const retry = (times: number) => Math.min(times * 100, 2000);
  const seeds = options.clusterNodes;
  const client: FleetClient = seeds
    ? new Cluster([...seeds], {
        redisOptions: connection,
        // A turn's commands leave in one write per master, grouped by the slot of their first
        // argument: a key for every command but EVAL and EVALSHA, whose first is the script
        // (grouped by it, a script could join another master's pipeline, which ioredis refuses).
        enableAutoPipelining: true,
        autoPipeliningIgnoredCommands: ["eval", "evalsha"],
        // Fail at once while the cluster is not ready instead of queueing.
        enableOfflineQueue: false,
        clusterRetryStrategy: retry,
        slotsRefreshTimeout: Math.max(commandTimeout, 1000),
        // Learn a fail-over without waiting for a command to be sent away: while a slot's master
        // is gone the instance sends that slot nothing, so no MOVED would tell it.
        slotsRefreshInterval: 1000,
      })
    : new Redis(options.url ?? "", {
        ...connection,
        // A turn's commands (a query level's flight leases, its look at the write version,
        // landings) leave in one write instead of one each.
        enableAutoPipelining: true,
        // Fail at once while disconnected instead of queueing: a request never waits on Redis.
        enableOfflineQueue: false,
        retryStrategy: retry,
        lazyConnect: false,
      });
  const failures = new RedisFailures();
  const listeners = new Set<(available: boolean) => void>();
  let connected = false;
  // A cluster client stays "ready" while its masters die (it connects to each lazily, and
  // learns a loss only from a command): each slot's master answers a PING each beat, or none counts.
  let mastersAnswer = true;
  let ready = false;
  let usable = false;
  const update = () => {
    ready = connected && mastersAnswer;
    const next = ready && failures.degraded() === undefined;
    if (next === usable) return;
    usable = next;
    for (const listener of listeners) listener(next);
  };
  client.on("ready", () => {
    connected = true;
    update();
  });
  for (const event of ["close", "end"]) {
    client.on(event, () => {
      connected = false;
      update();
    });
  }
  failures.onDegradedChange(update);
  const heartbeat =
    client instanceof Cluster
      ? setInterval(async () => {
          mastersAnswer = await everySlotAnswers(client);
          update();
        }, HEARTBEAT_MS)
      : undefined;
  heartbeat?.unref();
  // ioredis emits connection errors as events; without a listener Node would treat them as fatal.
  client.on("error", () => undefined);
  client.on("node error", () => undefined);

  async function attempt<T, F>(command: () => Promise<T>, onFailure: F): Promise<T | F> {
    try {
      return await command();
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      failures.record(error);
      return onFailure;
    }
  }
  const failed = Symbol("failed");
  async function sharedOrLocal<T, L>(
    shared: () => Promise<T>,
    local: () => L | Promise<L>,
  ): Promise<T | L> {
    if (!usable) return local();
    const answer = await attempt(shared, failed);
    return answer === failed ? local() : (answer as T);
  }
  const channels = createFleetChannels({ client, prefix, attempt, sharedOrLocal }, () =>
    createFleetSubscriber({
      url: options.url,
      cluster: client instanceof Cluster ? client : undefined,
      seeds,
      connection: { connectTimeout: connection.connectTimeout },
      retry,
    }),
  );

  return {
    client,
    form: seeds ? "cluster" : "server",
    prefix,
    key: fleetKeyNamer(prefix),
    available: () => usable,
    state: () => (!ready ? "unreachable" : usable ? "shared" : "degraded"),
    degradedReason: () => (ready ? failures.degraded() : undefined),
    failures,
    attempt,
    sharedOrLocal,
    onAvailabilityChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    channels,
    async close() {
      clearInterval(heartbeat);
      listeners.clear();
      failures.close();
      channels.close();
      client.disconnect();
    },
  };
}

/**
 * Whether the master the client would send each slot's commands to answers a PING now: a
 * master that died (and until its replica is promoted and the client's slot map follows) makes
 * its slots' state unusable, so the instance serves from its own. Not answering is the finding
 * here, not a failure to report.
 */
async function everySlotAnswers(cluster: Cluster): Promise<boolean> {
  const owners = new Set<string>();
  for (let slot = 0; slot < 16_384; slot++) {
    const owner = cluster.slots[slot]?.[0];
    if (owner === undefined) return false;
    owners.add(owner);
  }
  const connections = new Map(
    cluster.nodes("master").map((node) => [`${node.options.host}:${node.options.port}`, node]),
  );
  const answers = await Promise.all(
    [...owners].map((owner) => {
      const connection = connections.get(owner);
      return connection
        ? connection.ping().then(
            () => true,
            () => false,
          )
        : false;
    }),
  );
  return answers.every(Boolean);
}
