import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { FleetClient } from "./redis.ts";

/** How often an instance asks whether the store still holds the fleet's data (one small script). */
export const FLEET_LIFE_CHECK_MS = 1_000;
/** How long the fleet's life outlives the last instance that checked it. */
const FLEET_LIFE_TTL_MS = 24 * 60 * 60 * 1000;

// The store's life: a random name kept while any instance checks it. A store that lost its data
// (FLUSHALL, a failover to an empty replica) names a new one, which every instance then sees.
const LIFE = `local life = redis.call('get', KEYS[1])
if not life then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
redis.call('pexpire', KEYS[1], ARGV[2])
return life`;

/** One kind of fleet-wide message: its channel in Redis, how it is read, who hears it. */
export interface ChannelSpec<T> {
  /** The channel's name in Redis (`redis.key(kind)`). */
  name: string;
  /** Its kind, which counts its dropped messages (`limits`, `logouts`, `writes`, `poll`). */
  kind: string;
  /**
   * A message as an instance published it, or undefined: a foreign or malformed message. Given
   * its bytes as they came, so a channel may decode only what it reads.
   */
  parse(bytes: Buffer): T | undefined;
  /** Told each message that parsed. */
  deliver(message: T): void;
  /**
   * What the instance may have missed, looked up again: once subscribed, after each
   * resubscription, and whenever the store is found to have lost its data.
   */
  catchUp?(): void | Promise<void>;
}

/** An open channel: heard until closed. */
export interface FleetChannel {
  /** Settles once the first subscription was tried: true when it is confirmed. */
  readonly subscribed: Promise<boolean>;
  /** Whether the current connection's subscription to it is confirmed. */
  listening(): boolean;
  close(): void;
}

/** A Lua body that records a message where catch-up will find it; 0 means "do not publish". */
export interface Recorder {
  readonly lua: string;
}

/**
 * A recorder for `body`, which reads its own KEYS and ARGV[1..n]: the channel and the message
 * are passed after them. Every key must share one hash tag, so the script stays on one slot.
 */
export function recorder(body: string): Recorder {
  const lua = `local function record()
${body}
end
local reply = record()
if reply == 0 then return 0 end
redis.call('publish', ARGV[#ARGV - 1], ARGV[#ARGV])
return reply`;
  return { lua };
}

/** What the channels need of the fleet's store (FleetRedis, which owns them). */
export interface ChannelStore {
  readonly client: FleetClient;
  readonly prefix: string;
  attempt<T, F>(command: () => Promise<T>, onFailure: F): Promise<T | F>;
  sharedOrLocal<T, L>(shared: () => Promise<T>, local: () => L | Promise<L>): Promise<T | L>;
}

/** Every channel of one instance, over its one subscriber connection. */
export interface FleetChannels {
  open<T>(spec: ChannelSpec<T>): FleetChannel;
  /** Publishes a message on a channel (the caller falls back or not: `FleetRedis.sharedOrLocal`). */
  publish(name: string, text: string): Promise<unknown>;
  /**
   * Runs a recorder's script over `keys` and `args`, then publishes `text` on channel `name`
   * unless the script answered 0: one round trip, so an instance that hears the message finds it
   * recorded. Its answer is the script's.
   */
  record(
    name: string,
    recorder: Recorder,
    keys: readonly string[],
    args: ReadonlyArray<string | number>,
    text: string,
  ): Promise<unknown>;
  /** Malformed or foreign messages dropped so far, by channel kind. */
  dropped(): ReadonlyMap<string, number>;
  close(): void;
}

/**
 * The fleet's pub/sub in one place: one subscriber connection per instance, made on first use,
 * which every channel shares. A (re)made connection is subscribed to every open channel, then
 * each channel catches up on what it missed. The store's life is checked every
 * `FLEET_LIFE_CHECK_MS` and on each reconnection: a new life means the store lost its data with
 * the link kept up, and every channel catches up then too (logouts are written back). A message
 * that does not parse is dropped and counted, never thrown.
 */
export function createFleetChannels(store: ChannelStore, connect: () => Redis): FleetChannels {
  const lifeKey = `${store.prefix}fleet-life`;
  const specs = new Map<string, ChannelSpec<unknown>>();
  const confirmed = new Set<string>();
  const dropped = new Map<string, number>();
  let connection: Redis | undefined;
  let live = false;
  let life: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const drop = (kind: string) => dropped.set(kind, (dropped.get(kind) ?? 0) + 1);
  const catchUp = (spec: ChannelSpec<unknown>) =>
    store.attempt(async () => spec.catchUp?.(), undefined);

  /** The store's life now; true when it differs from the one this instance last saw. */
  async function lifeChanged(): Promise<boolean> {
    const now = await store.sharedOrLocal(
      async () =>
        String(await store.client.eval(LIFE, 1, lifeKey, randomUUID(), FLEET_LIFE_TTL_MS)),
      () => undefined,
    );
    if (now === undefined) return false;
    const changed = life !== undefined && life !== now;
    life = now;
    return changed;
  }

  async function subscribe(names: string[]): Promise<boolean> {
    if (names.length === 0 || !live || !connection) return false;
    const subscriber = connection;
    const done = await store.attempt(async () => {
      await subscriber.subscribe(...names);
      return true;
    }, false);
    // Confirmed only if the connection that confirmed it is still the one that is up.
    if (!done || !live || connection !== subscriber) return false;
    for (const name of names) confirmed.add(name);
    return true;
  }

  function connected(): Redis {
    if (connection) return connection;
    const made = connect();
    connection = made;
    // A connection (re)made is subscribed to everything anew before anyone relies on it, and
    // only then are missed messages looked up: one published before that is recorded by then.
    made.on("ready", async () => {
      live = true;
      await subscribe([...specs.keys()]);
      await lifeChanged();
      for (const spec of [...specs.values()]) await catchUp(spec);
    });
    made.on("close", () => {
      live = false;
      confirmed.clear();
    });
    // Bytes, not text: ioredis decodes a message only for "message" listeners, and most of a
    // flight's answer is never read by the instances that hear it go by.
    made.on("messageBuffer", (name: Buffer, bytes: Buffer) => {
      const spec = specs.get(name.toString());
      if (!spec) return;
      let message: unknown;
      try {
        message = spec.parse(bytes);
      } catch {
        // A parse that throws is one more malformed message: counted below, never rethrown.
        message = undefined;
      }
      if (message === undefined) drop(spec.kind);
      else spec.deliver(message);
    });
    timer = setInterval(async () => {
      if (!live || !(await lifeChanged())) return;
      for (const spec of [...specs.values()]) await catchUp(spec);
    }, FLEET_LIFE_CHECK_MS);
    timer.unref();
    return made;
  }

  return {
    open<T>(spec: ChannelSpec<T>): FleetChannel {
      const subscriber = connected();
      const own = spec as ChannelSpec<unknown>;
      specs.set(spec.name, own);
      // Opened again (a new listener) while a failed SUBSCRIBE left it unconfirmed: tried anew.
      const subscribed = confirmed.has(spec.name)
        ? Promise.resolve(true)
        : subscribe([spec.name]).then(async (done) => {
            if (done) await catchUp(own);
            return done;
          });
      const isOpen = () => specs.get(spec.name) === own;
      return {
        subscribed,
        listening: () => isOpen() && confirmed.has(spec.name),
        close() {
          if (!isOpen()) return;
          specs.delete(spec.name);
          confirmed.delete(spec.name);
          if (live) void store.attempt(() => subscriber.unsubscribe(spec.name), null);
        },
      };
    },
    publish: (name, text) => store.client.publish(name, text),
    // The whole script each time, never EVALSHA: a store that lost its scripts would answer a
    // held EVALSHA with NOSCRIPT once it is free again, and the message would be lost.
    record: (name, script, keys, args, text) =>
      store.client.eval(script.lua, keys.length, ...keys, ...args, name, text),
    dropped: () => dropped,
    close() {
      clearInterval(timer);
      specs.clear();
      confirmed.clear();
      live = false;
      connection?.disconnect();
    },
  };
}
