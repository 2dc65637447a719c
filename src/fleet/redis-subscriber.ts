import { type Cluster, Redis } from "ioredis";

/** One node of a Redis Cluster, as REDIS_CLUSTER_NODES gives it. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * The instance's one connection in subscriber mode (fleet-channel.ts owns it). ioredis's own
 * resubscription is off: it leaves that SUBSCRIBE without a handler, and a link that drops
 * again mid-resubscribe would reject it unhandled; the channels resubscribe it themselves.
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
    return connection;
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
  return connection;
}
