import { randomUUID } from "node:crypto";
import type { FleetWriteVersion } from "../upstream/write-version.ts";
import type { FleetRedis } from "./redis.ts";

/** The fleet's write version in Redis: `<prefix>wver`, one key, so no tag (upstream/write-version.ts says what it means). */
export function createFleetWriteVersion(redis: FleetRedis): FleetWriteVersion {
  const name = redis.key("wver");
  // Long enough never to expire under a live fleet; an expired token only costs one call each.
  const ttlS = 24 * 60 * 60;
  let view: string | undefined;
  let pending = false;

  async function send(): Promise<boolean> {
    if (!pending) return true;
    pending = false;
    const token = randomUUID();
    const sent = await redis.sharedOrLocal(
      () => redis.client.set(name, token, "EX", ttlS),
      () => false as const,
    );
    if (sent === false) {
      pending = true;
      return false;
    }
    // It held at that instant: calls this instance begins from now may record it.
    view = token;
    return true;
  }

  async function read(): Promise<string | undefined> {
    const token = await redis.sharedOrLocal(
      async () => {
        const now = await redis.client.get(name);
        if (now !== null) return now;
        // None (expired, or Redis came back empty): a new one, which no view holds.
        await redis.client.set(name, randomUUID(), "EX", ttlS, "NX");
        return redis.client.get(name);
      },
      () => null,
    );
    if (token === null) return undefined;
    view = token;
    return token;
  }

  // Every look asked for before the next GET goes shares it: sent after each of them began, it
  // tells each what one of its own would. One GET per turn of the event loop, not one per read.
  let next: Promise<string | undefined> | undefined;
  const version: FleetWriteVersion = {
    view: () => view,
    current() {
      next ??= new Promise((resolve) => {
        setImmediate(() => {
          next = undefined;
          resolve(read());
        });
      });
      return next;
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
  void refresh();
  return version;
}
