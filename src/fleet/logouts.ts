import { recorder } from "./fleet-channel.ts";
import type { FleetRedis } from "./redis.ts";

/**
 * The most logouts one instance writes back when its link to Redis returns: its latest ones, so
 * a Redis that lost its data is refilled in a bounded number of commands.
 */
export const LOGOUT_WRITE_BACK_MAX = 10_000;

/** How soon a logout Redis did not take (a timeout while it stays reachable) is sent again. */
export const LOGOUT_RETRY_MS = 1_000;

// Keeps the logout until the token expires anyway; the channel publishes it in the same step:
// an instance that hears of it has it in Redis too. One key, so one slot on a cluster.
const RECORD = recorder(`redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`);

/**
 * Session logouts for the whole fleet (session mode over a cookie, `POST /graphql/logout`). A
 * logout is kept as `<prefix>logout:{<session identity>}` until the token expires (its value:
 * that instant, in ms) and published on `<prefix>logouts`, so every running instance refuses the
 * token and closes what it holds open at once; an instance that did not hear it (started later,
 * or its subscription was down) finds the key when the token next arrives. Only the hash of a
 * token reaches Redis. While Redis is away or refusing, each instance keeps its own logouts (the
 * gateway's in-process map) and admits what it has not heard of: a logout answered then is kept
 * here and sent once Redis is back. Each time its link returns, and whenever the store is found
 * to have lost its data with the link kept up (fleet-channel.ts), an instance writes back every
 * unexpired logout it holds, so a Redis that came back empty never readmits a token.
 */
export interface FleetLogouts {
  /** Keeps the logout of a token's hash for the fleet until `untilMs`, and tells every instance. */
  record(hash: string, untilMs: number): Promise<void>;
  /**
   * When the fleet's logout of this hash ends, or undefined: none in Redis, or Redis unavailable
   * or slower than the command timeout (the failure reported as every fleet command's is).
   */
  find(hash: string): Promise<number | undefined>;
  /**
   * Writes back the logouts this instance holds (hash → until, the latest last) that Redis lacks:
   * called when the link returns, since Redis may have come back without its data. No message.
   */
  writeBack(held: ReadonlyMap<string, number>): Promise<void>;
  /** Told of every logout published, by any instance (this one too). */
  onLogout(listener: (hash: string, untilMs: number) => void): () => void;
  /**
   * Told when logouts may have been missed and are worth looking up again: the subscription was
   * (re)made, Redis is usable again, or the store lost its data.
   */
  onResume(listener: () => void): () => void;
  close(): void;
}

export function createFleetLogouts(redis: FleetRedis): FleetLogouts {
  const keyOf = (hash: string) => redis.key("logout", hash);
  const name = redis.key("logouts");
  const logoutListeners = new Set<(hash: string, untilMs: number) => void>();
  const resumeListeners = new Set<() => void>();
  /** Logouts answered while Redis was away or slow: sent the moment it is back. */
  const pending = new Map<string, number>();
  let retry: NodeJS.Timeout | undefined;

  function keep(hash: string, untilMs: number): void {
    pending.set(hash, untilMs);
    if (retry !== undefined) return;
    // A change of availability sends it at once too; a timeout alone changes none.
    retry = setTimeout(() => {
      retry = undefined;
      void flush();
    }, LOGOUT_RETRY_MS);
    retry.unref();
  }

  async function send(hash: string, untilMs: number): Promise<boolean> {
    const ttlMs = Math.max(1, Math.ceil(untilMs - Date.now()));
    const message = JSON.stringify({ hash, untilMs });
    return redis.sharedOrLocal(
      async () => {
        await redis.channels.record(name, RECORD, [keyOf(hash)], [String(untilMs), ttlMs], message);
        return true;
      },
      () => false,
    );
  }

  async function flush(): Promise<void> {
    for (const [hash, untilMs] of [...pending]) {
      pending.delete(hash);
      if (untilMs <= Date.now()) continue;
      if (!(await send(hash, untilMs))) keep(hash, untilMs);
    }
  }

  let writing: Promise<void> | undefined;
  let writeAgain: ReadonlyMap<string, number> | undefined;

  async function writeAll(held: ReadonlyMap<string, number>): Promise<void> {
    const now = Date.now();
    const live = [...held].filter(([, untilMs]) => untilMs > now).slice(-LOGOUT_WRITE_BACK_MAX);
    // One key a command (each its own slot on a cluster), a hundred at a time.
    for (let at = 0; at < live.length; at += 100) {
      await Promise.all(
        live.slice(at, at + 100).map(([hash, untilMs]) => {
          const ttlMs = Math.max(1, Math.ceil(untilMs - Date.now()));
          return redis.sharedOrLocal(
            () => redis.client.set(keyOf(hash), String(untilMs), "PX", ttlMs, "NX"),
            () => null,
          );
        }),
      );
    }
  }

  const resume = () => {
    for (const listener of resumeListeners) listener();
  };

  const channel = redis.channels.open({
    name,
    kind: "logouts",
    parse: (bytes) => parseLogout(bytes.toString()),
    deliver(logout) {
      for (const listener of logoutListeners) listener(logout.hash, logout.untilMs);
    },
    catchUp: resume,
  });
  const stopWatching = redis.onAvailabilityChange((available) => {
    if (!available) return;
    void flush();
    resume();
  });

  return {
    async record(hash, untilMs) {
      if (!(await send(hash, untilMs))) keep(hash, untilMs);
    },
    async writeBack(held) {
      // One write-back at a time; a return meanwhile writes again once it ends.
      if (writing) {
        writeAgain = held;
        return writing;
      }
      writing = (async () => {
        let next: ReadonlyMap<string, number> | undefined = held;
        while (next) {
          writeAgain = undefined;
          await writeAll(next);
          next = writeAgain;
        }
      })().finally(() => {
        writing = undefined;
      });
      return writing;
    },
    async find(hash) {
      const until = await redis.sharedOrLocal(
        () => redis.client.get(keyOf(hash)),
        () => null,
      );
      if (until === null) return undefined;
      // A key there is a logout: one whose value is not an instant (not ours) refuses for a day.
      const untilMs = Number(until);
      return Number.isFinite(untilMs) ? untilMs : Date.now() + 86_400_000;
    },
    onLogout(listener) {
      logoutListeners.add(listener);
      return () => logoutListeners.delete(listener);
    },
    onResume(listener) {
      resumeListeners.add(listener);
      return () => resumeListeners.delete(listener);
    },
    close() {
      clearTimeout(retry);
      stopWatching();
      logoutListeners.clear();
      resumeListeners.clear();
      channel.close();
    },
  };
}

/** A logout as an instance published it; anything else (a foreign message) is ignored. */
function parseLogout(text: string): { hash: string; untilMs: number } | undefined {
  try {
    const value = JSON.parse(text) as { hash?: unknown; untilMs?: unknown };
    if (typeof value.hash !== "string" || !/^[0-9a-f]{64}$/.test(value.hash)) return undefined;
    if (typeof value.untilMs !== "number" || !Number.isFinite(value.untilMs)) return undefined;
    return { hash: value.hash, untilMs: value.untilMs };
  } catch {
    return undefined;
  }
}
