import type { KeyBlock, KeyMemory } from "../upstream/key-memory.ts";
import { recorder } from "./fleet-channel.ts";
import type { FleetRedis } from "./redis.ts";

/** The most blocks kept at once: past it the ones that end first go (each instance keeps its own). */
export const MAX_KEPT_BLOCKS = 10_000;

// Drops the blocks that ended and keeps this one (scored by its end), which the channel then
// publishes: one key, so one slot on a cluster, read whole by an instance that catches up. The
// set lives as long as its longest block.
const KEEP = recorder(`redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
redis.call('zadd', KEYS[1], ARGV[2], ARGV[3])
redis.call('zremrangebyrank', KEYS[1], 0, -1 - tonumber(ARGV[4]))
local ttl = tonumber(ARGV[2]) - tonumber(ARGV[1])
if redis.call('pttl', KEYS[1]) < ttl then redis.call('pexpire', KEYS[1], ttl) end
return 1`);

/**
 * One upstream 429 stops the whole fleet for that key: the instance that saw it publishes the
 * block (`<prefix>limits`) and keeps it in `<prefix>limited`, a sorted set of the blocks by
 * their end; every instance applies what it hears to its own key memory, and reads the kept
 * blocks again whenever its subscription (re)connects, so an instance that starts, or that was
 * cut off from Redis, learns the blocks it missed. Each call still checks the block in process
 * memory: no request waits on Redis. Only key hashes and the (redacted) upstream error reach
 * Redis.
 */
export function shareKeyLimits(redis: FleetRedis, memory: KeyMemory): { close(): void } {
  const kept = redis.key("limited");
  const name = redis.key("limits");
  const channel = redis.channels.open({
    name,
    kind: "limits",
    parse: (bytes) => parseBlock(bytes.toString()),
    deliver: (block) => memory.block(block),
    // Every block still kept, applied to this instance's memory.
    async catchUp() {
      const texts = await redis.sharedOrLocal(
        () => redis.client.zrangebyscore(kept, Date.now(), "+inf"),
        () => [],
      );
      for (const text of texts) {
        const block = parseBlock(text);
        if (block) memory.block(block);
      }
    },
  });
  const stopListening = memory.onBlock((block) => {
    const now = Date.now();
    const until = Math.max(now + 1, Math.ceil(block.untilMs));
    const text = JSON.stringify(block);
    void redis.sharedOrLocal(
      () => redis.channels.record(name, KEEP, [kept], [now, until, text, MAX_KEPT_BLOCKS], text),
      () => null,
    );
  });
  return {
    close() {
      stopListening();
      channel.close();
    },
  };
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
