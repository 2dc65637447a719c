import { LRUCache } from "lru-cache";

/**
 * An LRU whose entries expire, reading the clock at each look. By default lru-cache keeps the
 * clock for a millisecond behind a timer it arms at each look that finds it cold; a gateway
 * looks a few times per read, milliseconds apart, so it armed one nearly every time, and those
 * timers were a good part of what a lone fleet flight cost.
 */
export function expiringLru<K extends {}, V extends {}>(
  options: LRUCache.Options<K, V, unknown>,
): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, ttlResolution: 0 });
}
