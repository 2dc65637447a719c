import type { KeyBlock, KeyMemory } from "../upstream/key-memory.ts";
import type { FleetRedis } from "./redis.ts";

/**
 * One upstream 429 stops the whole fleet for that key: the instance that saw it
 * publishes the block (`<prefix>limits`) and keeps it as `<prefix>limited:<key hash>` until the
 * reset (its TTL); every instance applies what it hears to its own key memory, and reads the
 * kept blocks again whenever its subscription (re)connects, so an instance that starts, or that
 * was cut off from Redis, learns the blocks it missed. Each call still checks the block in
 * process memory: no request waits on Redis. Only key hashes and the (redacted) upstream error
 * reach Redis.
 */
export function shareKeyLimits(redis: FleetRedis, memory: KeyMemory): { close(): void } {
  const channel = redis.key("limits");
  const subscriber = redis.subscriber();
  const stopListening = memory.onBlock((block) => {
    if (!redis.available()) return;
    const ttlMs = Math.max(1, Math.ceil(block.untilMs - Date.now()));
    const text = JSON.stringify(block);
    redis.client
      .multi()
      .set(redis.key("limited", block.hash), text, "PX", ttlMs)
      .publish(channel, text)
      .exec()
      .catch(() => undefined);
  });
  subscriber.on("message", (from: string, text: string) => {
    if (from !== channel) return;
    const block = parseBlock(text);
    if (block) memory.block(block);
  });
  subscriber.on("ready", () => void loadKeptBlocks(redis, memory));
  subscriber.subscribe(channel).catch(() => undefined);
  return {
    close() {
      stopListening();
      subscriber.disconnect();
    },
  };
}

/** Every block still kept in Redis, applied to this instance's memory. */
async function loadKeptBlocks(redis: FleetRedis, memory: KeyMemory): Promise<void> {
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.client.scan(
        cursor,
        "MATCH",
        redis.key("limited", "*"),
        "COUNT",
        200,
      );
      cursor = next;
      if (keys.length === 0) continue;
      for (const text of await redis.client.mget(keys)) {
        const block = text === null ? undefined : parseBlock(text);
        if (block) memory.block(block);
      }
    } while (cursor !== "0");
  } catch {
    // Redis went away again: the next (re)connection reads them.
  }
}

/** A block as another instance published it; anything else (a foreign message) is ignored. */
function parseBlock(text: string): KeyBlock | undefined {
  try {
    const value = JSON.parse(text) as Partial<KeyBlock>;
    const error = value.error;
    if (
      typeof value.hash !== "string" ||
      typeof value.untilMs !== "number" ||
      typeof error?.code !== "string" ||
      typeof error.message !== "string"
    ) {
      return undefined;
    }
    return { hash: value.hash, untilMs: value.untilMs, error };
  } catch {
    return undefined;
  }
}
