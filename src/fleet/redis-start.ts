import { createFleetRedis, type FleetRedis } from "./redis.ts";
import { checkFleetStore } from "./redis-fitness.ts";
import type { RedisNode } from "./redis-subscriber.ts";

/** How long start-up waits for the store to check it: past it the gateway starts on its own state. */
export const STORE_CHECK_WAIT_MS = 2000;

/**
 * The fleet's store as main.ts gets it from REDIS_URL or REDIS_CLUSTER_NODES: checked first
 * (redis-fitness.ts throws one line naming what to set), then connected.
 */
export async function startFleetRedis(settings: {
  url?: string | undefined;
  clusterNodes?: readonly string[] | undefined;
  prefix: string;
}): Promise<FleetRedis> {
  const clusterNodes = settings.clusterNodes?.map(parseNode);
  await checkFleetStore({ url: settings.url, clusterNodes, waitMs: STORE_CHECK_WAIT_MS });
  return createFleetRedis({
    ...(clusterNodes ? { clusterNodes } : { url: settings.url }),
    prefix: settings.prefix,
  });
}

/** "host:port" as REDIS_CLUSTER_NODES gives it (config.ts checked the form). */
export function parseNode(node: string): RedisNode {
  const colon = node.lastIndexOf(":");
  return { host: node.slice(0, colon), port: Number(node.slice(colon + 1)) };
}
