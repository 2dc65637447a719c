import type { FleetRedis } from "./redis.ts";

/**
 * The most logouts one instance writes back when its link to Redis returns: its latest ones, so
 * a Redis that lost its data is refilled in a bounded number of commands.
 */
export const LOGOUT_WRITE_BACK_MAX = 10_000;

/** How soon a logout Redis did not take (a timeout while it stays reachable) is sent again. */
export const LOGOUT_RETRY_MS = 1_000;

// Keeps the logout until the token expires anyway and tells every instance, in one step: an
// instance that hears of it has it in Redis too. One key, so one slot on a cluster.
const RECORD = `redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return redis.call('publish', ARGV[3], ARGV[4])`;

/**
 * Session logouts for the whole fleet (session mode over a cookie, `POST /graphql/logout`). A
 * logout is kept as `<prefix>logout:{<session identity>}` until the token expires (its value:
 * that instant, in ms) and published on `<prefix>logouts`, so every running instance refuses the
 * token and closes what it holds open at once; an instance that did not hear it (started later,
 * or its subscription was down) finds the key when the token next arrives. Only the hash of a
 * token reaches Redis. While Redis is away or refusing, each instance keeps its own logouts (the
 * gateway's in-process map) and admits what it has not heard of: a logout answered then is kept
 * here and sent once Redis is back. Each time its link returns, an instance writes back every
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
   * (re)made, or Redis is usable again.
   */
  onResume(listener: () => void): () => void;
  close(): void;
}

export function createFleetLogouts(redis: FleetRedis): FleetLogouts {
  const channel = redis.key("logouts");
  const keyOf = (hash: string) => redis.key("logout", hash);
  const subscriber = redis.subscriber();
  const logoutListeners = new Set<(hash: string, untilMs: number) => void>();
  const resumeListeners = new Set<() => void>();
  /** Logouts answered while Redis was away or slow: sent the moment it is back. */
  const pending = new Map<string, number>();
  let retry: NodeJS.Timeout | undefined;

  function keep(hash: string, untilMs: number): void {
    pending.set(hash, untilMs);
    if (retry !== undefined) return;
    // Unavailable, the next change of availability sends it; a timeout alone changes none.
    retry = setTimeout(() => {
      retry = undefined;
      void flush();
    }, LOGOUT_RETRY_MS);
    retry.unref();
  }

  async function send(hash: string, untilMs: number): Promise<boolean> {
    const ttlMs = Math.max(1, Math.ceil(untilMs - Date.now()));
    const message = JSON.stringify({ hash, untilMs });
    return redis.attempt(async () => {
      await redis.client.eval(RECORD, 1, keyOf(hash), String(untilMs), ttlMs, channel, message);
      return true;
    }, false);
  }

  async function flush(): Promise<void> {
    for (const [hash, untilMs] of [...pending]) {
      if (!redis.available()) return;
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
      if (!redis.available()) return;
      await Promise.all(
        live.slice(at, at + 100).map(([hash, untilMs]) => {
          const ttlMs = Math.max(1, Math.ceil(untilMs - Date.now()));
          return redis.attempt(
            () => redis.client.set(keyOf(hash), String(untilMs), "PX", ttlMs, "NX"),
            null,
          );
        }),
      );
    }
  }

  const resume = () => {
    for (const listener of resumeListeners) listener();
  };

  subscriber.on("message", (from: string, text: string) => {
    if (from !== channel) return;
    const logout = parseLogout(text);
    if (logout) for (const listener of logoutListeners) listener(logout.hash, logout.untilMs);
  });
  // A connection (re)made is subscribed anew, and only then are missed logouts looked up: one
  // published before the subscription holds is in Redis by then.
  subscriber.on("ready", async () => {
    await redis.attempt(() => subscriber.subscribe(channel), null);
    resume();
  });
  const stopWatching = redis.onAvailabilityChange((available) => {
    if (!available) return;
    void flush();
    resume();
  });

  return {
    async record(hash, untilMs) {
      if (!redis.available() || !(await send(hash, untilMs))) keep(hash, untilMs);
    },
    async writeBack(held) {
      if (!redis.available()) return;
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
      if (!redis.available()) return undefined;
      const until = await redis.attempt(() => redis.client.get(keyOf(hash)), null);
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
      subscriber.disconnect();
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
