import type { FleetRedis } from "./redis.ts";

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
 * here and sent once Redis is back.
 */
export interface FleetLogouts {
  /** Keeps the logout of a token's hash for the fleet until `untilMs`, and tells every instance. */
  record(hash: string, untilMs: number): Promise<void>;
  /**
   * When the fleet's logout of this hash ends, or undefined: none in Redis, or Redis unavailable
   * or slower than the command timeout (the failure reported as every fleet command's is).
   */
  find(hash: string): Promise<number | undefined>;
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
