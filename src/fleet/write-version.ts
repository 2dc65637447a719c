import { randomUUID } from "node:crypto";
import type { FleetRedis } from "./redis.ts";

/**
 * The fleet's write version: `<prefix>wver`, a random token every accepted write (any instance,
 * any resource) replaces before it is answered. Two reads of it that are equal mean no write was
 * answered between them (tokens never repeat, and a missing one is made anew, so a Redis that
 * came back empty never matches an old one). A call in flight records the instance's view of it
 * (a value it held at some instant before the call started, read for free); a read joins that
 * call only if the token read when it joins still equals it. A bump that cannot reach Redis is
 * kept and sent again once the link is back.
 */
export interface FleetWriteVersion {
  /** The last token this instance read, held at some instant before now; undefined: none yet. */
  view(): string | undefined;
  /**
   * The token now (one GET, bounded by the command timeout); undefined when Redis cannot tell
   * within it. Updates the view.
   */
  current(): Promise<string | undefined>;
  /** An accepted write: a new token, before the write is answered (kept if Redis is away). */
  bump(): Promise<void>;
}

export function createFleetWriteVersion(redis: FleetRedis): FleetWriteVersion {
  const name = redis.key("wver");
  // Long enough never to expire under a live fleet; an expired token only costs one call each.
  const ttlS = 24 * 60 * 60;
  let view: string | undefined;
  let pending = false;

  async function send(): Promise<boolean> {
    if (!pending) return true;
    if (!redis.available()) return false;
    pending = false;
    const token = randomUUID();
    try {
      await redis.client.set(name, token, "EX", ttlS);
      // It held at that instant: calls this instance begins from now may record it.
      view = token;
      return true;
    } catch {
      pending = true;
      return false;
    }
  }

  const version: FleetWriteVersion = {
    view: () => view,
    async current() {
      if (!redis.available()) return undefined;
      try {
        let token = await redis.client.get(name);
        if (token === null) {
          // None (expired, or Redis came back empty): a new one, which no view holds.
          await redis.client.set(name, randomUUID(), "EX", ttlS, "NX");
          token = await redis.client.get(name);
        }
        if (token === null) return undefined;
        view = token;
        return token;
      } catch {
        return undefined;
      }
    },
    async bump() {
      pending = true;
      await send();
    },
  };
  // A pending bump goes the moment Redis is back; and a fresh view then spares the first joins
  // a call of their own.
  const refresh = async () => {
    await send();
    await version.current();
  };
  redis.onAvailabilityChange((available) => {
    if (available) void refresh();
  });
  if (redis.available()) void refresh();
  return version;
}
