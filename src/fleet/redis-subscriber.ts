import { type Cluster, Redis } from "ioredis";

/** One node of a Redis Cluster, as REDIS_CLUSTER_NODES gives it. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * A connection in subscriber mode. Subscriber mode queues its SUBSCRIBE until connected and
 * resubscribes after a reconnect. Its commands are never flushed with an error: ioredis's own
 * resubscription has no one to catch it, and a link that drops again mid-resubscribe must not
 * reject it unhandled.
 *
 * On a cluster, a classic PUBLISH reaches every node, so one node's connection hears the whole
 * fleet; when that node goes, the connection moves to the next node the cluster knows (or the
 * next seed) before it reconnects, and resubscribes there.
 */
export function createFleetSubscriber(options: {
  url: string | undefined;
  cluster: Cluster | undefined;
  seeds: readonly RedisNode[] | undefined;
  connection: { connectTimeout: number };
  retry: (times: number) => number;
  /** How a failed resubscription is reported (FleetRedis.attempt). */
  report: (command: () => Promise<unknown>) => Promise<unknown>;
}): Redis {
  const settings = {
    ...options.connection,
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    lazyConnect: false,
    autoResubscribe: false,
  };
  const { cluster, seeds } = options;
  if (!cluster || !seeds?.length) {
    const connection = new Redis(options.url ?? "", { ...settings, retryStrategy: options.retry });
    connection.on("error", () => undefined);
    return resubscribing(connection, options.report);
  }
  let turn = 0;
  const nodes = (): RedisNode[] => [
    ...cluster.nodes("all").map((node) => ({
      host: String(node.options.host),
      port: Number(node.options.port),
    })),
    ...seeds,
  ];
  const first = seeds[0] as RedisNode;
  const connection: Redis = new Redis({
    ...settings,
    host: first.host,
    port: first.port,
    retryStrategy(times) {
      const known = nodes();
      const next = known[++turn % known.length] as RedisNode;
      // ioredis connects to its options' host and port at every attempt.
      connection.options.host = next.host;
      connection.options.port = next.port;
      return options.retry(times);
    },
  });
  connection.on("error", () => undefined);
  return resubscribing(connection, options.report);
}

/**
 * ioredis resubscribes a reconnected connection itself, but leaves that SUBSCRIBE without a
 * handler: a connection closed before it is answered (an instance shutting down just as its
 * link came back) would reject it unhandled. This connection keeps the channels it was asked
 * for and resubscribes them itself, through `report`.
 */
function resubscribing(
  connection: Redis,
  report: (command: () => Promise<unknown>) => Promise<unknown>,
): Redis {
  const channels = new Set<string>();
  const subscribe = connection.subscribe.bind(connection);
  const unsubscribe = connection.unsubscribe.bind(connection);
  const named = (args: readonly unknown[]) =>
    args.filter((arg): arg is string => typeof arg === "string");
  connection.subscribe = ((...args: Parameters<Redis["subscribe"]>) => {
    for (const channel of named(args)) channels.add(channel);
    return subscribe(...args);
  }) as Redis["subscribe"];
  connection.unsubscribe = ((...args: Parameters<Redis["unsubscribe"]>) => {
    for (const channel of named(args)) channels.delete(channel);
    return unsubscribe(...args);
  }) as Redis["unsubscribe"];
  let connectedBefore = false;
  connection.on("ready", () => {
    if (connectedBefore && channels.size > 0) void report(() => subscribe(...channels));
    connectedBefore = true;
  });
  return connection;
}
