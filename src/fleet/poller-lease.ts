import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { FleetRedis } from "./redis.ts";

/** A lease outlives two poll intervals by this much: a poll late by less keeps its owner. */
export const LEASE_MARGIN_MS = 250;

/** What an owner publishes to the fleet for one watched call: a status, or the error that ended it. */
export interface PollerUpdate {
  /** Fleet-wide order of the updates of one call within one epoch: followers drop anything not newer. */
  seq: number;
  /**
   * The life of the call's counter: a random name made with it. A Redis that comes back empty
   * starts a new one (and `seq` from 1), which followers take as newer than anything before.
   */
  epoch?: string;
  /** The instance that polled it (an owner ignores its own). */
  from: string;
  status?: unknown;
  error?: unknown;
}

/** One watched call (a key hash and a conversation) as this instance takes part in it. */
export interface SharedPoller {
  /**
   * Called once per poll interval: whether this instance polls now. It holds (or just took) the
   * lease, or Redis is away and every instance polls for its own subscribers.
   */
  tick(): Promise<"owner" | "follower">;
  /** An owner's changed status or final error, published once for every instance. */
  publish(update: Omit<PollerUpdate, "seq" | "from">): Promise<void>;
  /** The newest update published for this call, for an instance whose first subscriber arrives. */
  latest(): Promise<PollerUpdate | undefined>;
  /** This instance no longer watches the call: its lease (if it held it) goes at once. */
  leave(): void;
}

/** How the hub takes part in the fleet's pollers (conversation-status-hub.ts). */
export interface PollerFleet {
  /** This process, as logs and metrics name it. */
  readonly instanceId: string;
  join(watch: string, onUpdate: (update: PollerUpdate) => void): SharedPoller;
  close(): void;
}

// Renews the lease only while this instance still holds it.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
// Gives the lease up only if this instance holds it.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]) else return 0 end`;
// Numbers the update within the counter's epoch (made with the counter, so a Redis that came
// back empty starts a new one), keeps it as the latest, and publishes it: one round trip, one order.
const PUBLISH = `local epoch = redis.call('get', KEYS[3])
if not epoch or redis.call('exists', KEYS[1]) == 0 then epoch = ARGV[4] end
local seq = redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], ARGV[3])
redis.call('set', KEYS[3], epoch, 'PX', ARGV[3])
local update = string.format('{"seq":%d,"epoch":"%s",%s', seq, epoch, string.sub(ARGV[1], 2))
redis.call('set', KEYS[2], update, 'PX', ARGV[3])
redis.call('publish', ARGV[2], update)
return seq`;

/**
 * One poller per (key hash, conversation) across the fleet: the instance holding the
 * lease `<prefix>poller:<watch>` (a few poll intervals long, renewed at every poll) polls the
 * upstream and publishes each change once on `<prefix>status:<watch>`, numbered by
 * `<prefix>seq:<watch>` within `<prefix>epoch:<watch>`; every other instance delivers what it hears to its own subscribers and
 * tries to take the lease at each interval, so when the owner dies another takes over within
 * about three intervals. While Redis is unreachable every instance polls for its own.
 */
export function createPollerFleet(
  redis: FleetRedis,
  options: { intervalMs: number; instanceId?: string },
): PollerFleet {
  const instanceId = options.instanceId ?? randomUUID();
  const leaseMs = 2 * options.intervalMs + LEASE_MARGIN_MS;
  const keepMs = Math.max(60_000, 10 * options.intervalMs);
  const listeners = new Map<string, (update: PollerUpdate) => void>();
  let subscriber: Redis | undefined;
  const channelOf = (watch: string) => redis.key("status", watch);

  const subscription = () => {
    if (subscriber) return subscriber;
    subscriber = redis.subscriber();
    subscriber.on("message", (channel: string, text: string) => {
      const update = parseUpdate(text);
      if (update && update.from !== instanceId) listeners.get(channel)?.(update);
    });
    return subscriber;
  };

  return {
    instanceId,
    join(watch, onUpdate) {
      const channel = channelOf(watch);
      const lease = redis.key("poller", watch);
      listeners.set(channel, onUpdate);
      subscription()
        .subscribe(channel)
        .catch(() => undefined);
      let owner = false;
      return {
        async tick() {
          if (!redis.available()) return "owner";
          try {
            if (owner) {
              owner = (await redis.client.eval(RENEW, 1, lease, instanceId, leaseMs)) === 1;
            }
            if (!owner) {
              owner = (await redis.client.set(lease, instanceId, "PX", leaseMs, "NX")) === "OK";
            }
            return owner ? "owner" : "follower";
          } catch {
            // Redis did not answer in time: poll for our own subscribers rather than leave a gap.
            return "owner";
          }
        },
        async publish(update) {
          if (!redis.available()) return;
          const body = JSON.stringify({ from: instanceId, ...update });
          await redis.client
            .eval(
              PUBLISH,
              3,
              redis.key("seq", watch),
              redis.key("latest", watch),
              redis.key("epoch", watch),
              body,
              channel,
              keepMs,
              randomUUID(),
            )
            .catch(() => undefined);
        },
        async latest() {
          if (!redis.available()) return undefined;
          const text = await redis.client.get(redis.key("latest", watch)).catch(() => null);
          return text === null ? undefined : parseUpdate(text);
        },
        leave() {
          listeners.delete(channel);
          subscriber?.unsubscribe(channel).catch(() => undefined);
          if (owner && redis.available()) {
            redis.client.eval(RELEASE, 1, lease, instanceId).catch(() => undefined);
          }
          owner = false;
        },
      };
    },
    close() {
      listeners.clear();
      subscriber?.disconnect();
    },
  };
}

function parseUpdate(text: string): PollerUpdate | undefined {
  try {
    const value = JSON.parse(text) as Partial<PollerUpdate>;
    if (typeof value.seq !== "number" || typeof value.from !== "string") return undefined;
    if (value.epoch !== undefined && typeof value.epoch !== "string") return undefined;
    return value as PollerUpdate;
  } catch {
    return undefined;
  }
}
