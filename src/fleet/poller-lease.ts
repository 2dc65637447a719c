import type { Redis } from "ioredis";
import { type FleetChannel, recorder } from "./fleet-channel.ts";
import { FlightListeners, flightHeader, flightText, parseFlightMessage } from "./flights-in-air.ts";
import {
  createMemoryPollerStore,
  keepMsOf,
  type Mark,
  type PollerStore,
  type PollerUpdate,
  type Tick,
  type WriteNotice,
} from "./poller-store.ts";
import type { FleetRedis } from "./redis.ts";

// The watch's counter: one hash (epoch, seq, published, latest), so it lives and expires whole.
// A new epoch is the server's clock in microseconds, 20 digits, so epochs compare as strings.
const NEXT_MARK = `local function next_mark(counter, keep)
  local epoch = redis.call('hget', counter, 'epoch')
  if not epoch then
    local t = redis.call('time')
    epoch = string.format('%014d%06d', tonumber(t[1]), tonumber(t[2]))
    redis.call('del', counter)
    redis.call('hset', counter, 'epoch', epoch)
  end
  local seq = redis.call('hincrby', counter, 'seq', 1)
  redis.call('pexpire', counter, keep)
  return {epoch, seq}
end
`;

// KEYS: lease, counter. ARGV: holder (the instance), leaseMs, keepMs. The holder (or a taker of
// a free lease) gets a mark for the read it is about to make; anyone else gets the newest update.
const TICK = `${NEXT_MARK}
local holder = redis.call('get', KEYS[1])
if holder and holder ~= ARGV[1] then
  return {0, redis.call('hget', KEYS[2], 'latest') or ''}
end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
local mark = next_mark(KEYS[2], ARGV[3])
return {1, mark[1], mark[2]}`;

// KEYS: lease, counter, last (the instance that took the lease last, after a 1 if that grant
// was solo, neither after a rival's nor announced, else after a 0), contended (a lease was
// refused lately). ARGV: holder (the attempt), leaseMs, the flight's name, the flights channel,
// the instance, rivalMs. TICK's rule with a counter kept only the lease's length. A refusal
// marks the flight contended and its answer awaited. A lease granted says whether another
// instance took the last one, and whether it was announced: it is only while the flight is
// contended, so a flight that no two instances want at once wakes no other instance. One
// exception: a grant after another instance's solo one says so on the channel (rival), since
// that instance may fly it without the store (FlightListeners.ownAlone).
const FLIGHT = `${NEXT_MARK}
local holder = redis.call('get', KEYS[1])
if holder and holder ~= ARGV[1] then
  if redis.call('exists', KEYS[2]) == 1 then redis.call('hset', KEYS[2], 'heard', 1) end
  redis.call('set', KEYS[4], 1, 'PX', ARGV[6])
  return {0, redis.call('hget', KEYS[2], 'latest') or ''}
end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
local mark = next_mark(KEYS[2], ARGV[2])
local last = redis.call('get', KEYS[3])
local rival = 0
if last and string.sub(last, 2) ~= ARGV[5] then rival = 1 end
local announced = redis.call('exists', KEYS[4])
local solo = '0'
if announced == 1 then
  redis.call('hset', KEYS[2], 'heard', 1)
  redis.call('publish', ARGV[4], cjson.encode({flight = ARGV[3], started = {
    epoch = mark[1], seq = mark[2], from = ARGV[1], leaseMs = tonumber(ARGV[2])}}))
else
  redis.call('hdel', KEYS[2], 'heard')
  if rival == 0 then solo = '1' end
  if rival == 1 and string.sub(last, 1, 1) == '1' then
    redis.call('publish', ARGV[4], cjson.encode({flight = ARGV[3], rival = ARGV[5]}))
  end
end
redis.call('set', KEYS[3], solo .. ARGV[5], 'PX', ARGV[6])
return {1, mark[1], mark[2], rival, announced}`;

// KEYS: counter. ARGV: keepMs. A mark for a read outside the lease.
const MARK = `${NEXT_MARK}
local mark = next_mark(KEYS[1], ARGV[1])
return {mark[1], mark[2]}`;

// KEYS: counter. ARGV: epoch, seq, update, keepMs. Keeps an update, which the channel then
// publishes, only when it is newer than the last published in the epoch that still holds: one
// order for all.
const KEEP_NEWER = `if redis.call('hget', KEYS[1], 'epoch') ~= ARGV[1] then return 0 end
local last = redis.call('hget', KEYS[1], 'published')
if last and tonumber(last) >= tonumber(ARGV[2]) then return 0 end
redis.call('hset', KEYS[1], 'published', ARGV[2], 'latest', ARGV[3])
redis.call('pexpire', KEYS[1], ARGV[4])
return 1`;
const PUBLISH = recorder(KEEP_NEWER);

// KEYS: counter, lease. ARGV: as PUBLISH's, then the holder. A flight's answer, by the same
// rule, and the end of its lease if that attempt holds it: one script per landing. Answers 0
// unless the flight was announced or awaited: no one else waits for its answer otherwise.
const LAND_BODY = `if redis.call('get', KEYS[2]) == ARGV[5] then redis.call('del', KEYS[2]) end
local heard = redis.call('hget', KEYS[1], 'heard')
local function keep_newer()
${KEEP_NEWER}
end
local kept = keep_newer()
if not heard then return 0 end
return kept`;
// The same, for a flight announced as it was granted: its answer goes with the landing.
const LAND = recorder(LAND_BODY);

// KEYS: lease. ARGV: instance. Gives the lease up only if this instance holds it.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]) else return 0 end`;

/** A landed flight's counter (and answer) goes at once: nothing of a flight outlives it. */
const FLIGHT_KEEP_MS = 1;

interface PollerCommands {
  pollerTick(
    lease: string,
    counter: string,
    instance: string,
    leaseMs: number,
    keepMs: number,
  ): Promise<[number, string, string?]>;
  pollerFlight(
    lease: string,
    counter: string,
    last: string,
    contended: string,
    holder: string,
    leaseMs: number,
    name: string,
    channel: string,
    instance: string,
    rivalMs: number,
  ): Promise<[number, string, string?, number?, number?]>;
  pollerLand(
    counter: string,
    lease: string,
    epoch: string,
    seq: number,
    header: string,
    keepMs: number,
    holder: string,
  ): Promise<number>;
  pollerMark(counter: string, keepMs: number): Promise<[string, string]>;
  pollerRelease(lease: string, instance: string): Promise<number>;
}

export interface RedisPollerStoreOptions {
  intervalMs: number;
  instanceId?: string;
}

/**
 * The pollers' shared state in Redis. Each watch's keys carry one hash tag, `{poll:<watch>}`, so
 * its scripts never cross a slot in a Redis Cluster and watches spread over the masters:
 * `<prefix>{poll:<watch>}:lease` (the owner's instance ID, a few poll intervals long) and
 * `<prefix>{poll:<watch>}:counter` (epoch, seq, the last published seq and the newest update,
 * kept a minute past the last tick). Updates go out on `<prefix>poll:<watch>`, writes on
 * `<prefix>writes` (the fleet's channels, fleet-channel.ts). A flight is a watch kept only as long
 * as its lease, whose one answer goes out on `<prefix>flights`, the one channel every instance
 * hears all flights on. While Redis is unreachable, or a command fails (reported as every fleet
 * command's is), the instance works alone (an in-process store): it reads for its own
 * subscribers rather than leave them a gap.
 */
export function createRedisPollerStore(
  redis: FleetRedis,
  options: RedisPollerStoreOptions,
): PollerStore {
  const alone = createMemoryPollerStore({
    intervalMs: options.intervalMs,
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
  });
  const { instanceId } = alone;
  const keepMs = keepMsOf(options.intervalMs);
  const client = redis.client as unknown as Redis & PollerCommands;
  defineCommands(client);
  const key = (watch: string, part: string) => `${redis.prefix}{poll:${watch}}:${part}`;
  const channelOf = (watch: string) => `${redis.prefix}poll:${watch}`;
  const flightsChannel = `${redis.prefix}flights`;
  const flightListeners = new FlightListeners(instanceId);

  const channels = new Map<string, FleetChannel>();
  const writeListeners = new Set<(notice: WriteNotice) => void>();
  const writesChannel = `${redis.prefix}writes`;
  const writes = redis.channels.open({
    name: writesChannel,
    kind: "writes",
    parse: (bytes) => parseNotice(bytes.toString()),
    deliver(notice) {
      if (notice.from !== instanceId) for (const listener of writeListeners) listener(notice);
    },
  });
  // Heard from the start, so the first read can join a flight already.
  const flights = redis.channels.open({
    name: flightsChannel,
    kind: "flights",
    parse: parseFlightMessage,
    deliver: (message) => flightListeners.heard(message),
    // Answers may have gone by unheard: what seemed in the air is asked of the store again.
    catchUp: () => flightListeners.inAir.clear(),
  });

  /** Redis's answer, or undefined: Redis away or failing, and the instance then works alone. */
  const command = <T>(run: () => Promise<T>) => redis.sharedOrLocal(run, () => undefined);

  return {
    instanceId,
    shared: () => redis.available(),
    async tick(watch, leaseMs): Promise<Tick> {
      const reply = await command(() =>
        client.pollerTick(key(watch, "lease"), key(watch, "counter"), instanceId, leaseMs, keepMs),
      );
      if (!reply) return alone.tick(watch, leaseMs);
      if (Number(reply[0]) === 1) {
        return { role: "owner", mark: { epoch: String(reply[1]), seq: Number(reply[2]) } };
      }
      return { role: "follower", latest: reply[1] ? parseUpdate(String(reply[1])) : undefined };
    },
    async mark(watch): Promise<Mark> {
      const reply = await command(() => client.pollerMark(key(watch, "counter"), keepMs));
      if (!reply) return alone.mark(watch);
      return { epoch: String(reply[0]), seq: Number(reply[1]) };
    },
    async publish(watch, update) {
      const body = JSON.stringify(update);
      const counter = key(watch, "counter");
      const reply = await command(() =>
        redis.channels.record(
          channelOf(watch),
          PUBLISH,
          [counter],
          [update.epoch, update.seq, body, keepMs],
          body,
        ),
      );
      // Not kept in Redis (away, or it refused): this instance's own subscribers still get what
      // it read.
      if (reply === undefined) return alone.publish(watch, update);
      return reply === 1;
    },
    async latest(watch) {
      const text = await command(() => client.hget(key(watch, "counter"), "latest"));
      return text ? parseUpdate(text) : undefined;
    },
    async listen(watch, onUpdate) {
      // Listening again replaces the listener, with no gap in the subscription.
      const channel = redis.channels.open({
        name: channelOf(watch),
        kind: "poll",
        parse: (bytes) => parseUpdate(bytes.toString()),
        deliver(update) {
          if (update.from !== instanceId) onUpdate(update);
        },
      });
      channels.set(watch, channel);
      await channel.subscribed;
    },
    listening: (watch) => channels.get(watch)?.listening() ?? false,
    leave(watch) {
      channels.get(watch)?.close();
      channels.delete(watch);
      alone.leave(watch);
      void command(() => client.pollerRelease(key(watch, "lease"), instanceId));
    },
    async announce(notice) {
      const full: WriteNotice = { ...notice, from: instanceId };
      for (const listener of writeListeners) listener(full);
      await command(() => redis.channels.publish(writesChannel, JSON.stringify(full)));
    },
    async flight(name, leaseMs): Promise<Tick> {
      const mark = flightListeners.ownAlone(name, leaseMs);
      if (mark) return { role: "owner", mark, solo: true };
      const holder = flightListeners.attempt();
      const reply = await command(() =>
        client.pollerFlight(
          key(name, "lease"),
          key(name, "counter"),
          key(name, "last"),
          key(name, "contended"),
          holder,
          leaseMs,
          name,
          flightsChannel,
          instanceId,
          flightListeners.rivalMs,
        ),
      );
      if (!reply) {
        const own = await alone.flight(name, leaseMs);
        return own.role === "owner" ? { ...own, alone: true } : own;
      }
      if (Number(reply[0]) === 1) {
        const mark = { epoch: String(reply[1]), seq: Number(reply[2]) };
        flightListeners.owned(
          name,
          holder,
          { ...mark, leaseMs },
          { announced: Number(reply[4]) === 1, rival: Number(reply[3]) === 1 },
        );
        return { role: "owner", mark };
      }
      flightListeners.refused(name);
      const latest = reply[1] ? parseFlightMessage(String(reply[1])) : undefined;
      return { role: "follower", latest: latest && "answer" in latest ? latest : undefined };
    },
    async land(name, mark, answer) {
      const { holder, announced, solo } = flightListeners.landing(name, mark, answer) ?? {
        holder: "",
        announced: false,
      };
      // Granted without the store: nothing of it is there.
      if (solo) return;
      // Made outside the commands, so that only Redis's own failures count as Redis's.
      const text = () => flightText(name, { ...mark, answer: answer() });
      // The answer goes out on the channel only: what the counter keeps (for a later attempt's
      // waiters to wait past) is its mark, so the answer crosses to Redis at most once and
      // stays nowhere.
      const keys = [key(name, "counter"), key(name, "lease")] as const;
      const args = [
        mark.epoch,
        mark.seq,
        flightHeader(name, mark),
        FLIGHT_KEEP_MS,
        holder,
      ] as const;
      // Announced as granted: awaited from the start, so its answer goes with the landing.
      if (announced) {
        const landed = text();
        await command(() => redis.channels.record(flightsChannel, LAND, keys, args, landed));
        return;
      }
      // Quiet so far: the answer crosses only if a waiter came meanwhile, published once the
      // landing is kept, which a waiter that subscribed before its refusal still hears.
      const awaited = await command(() => client.pollerLand(...keys, ...args));
      if (Number(awaited) === 1) {
        // Another instance's refused read awaits it: this flight is not this instance's alone.
        flightListeners.refused(name);
        const landed = text();
        await command(() => redis.channels.publish(flightsChannel, landed));
      }
    },
    hearFlight: (name, onUpdate) => flightListeners.hear(name, onUpdate),
    announced: (name) => flightListeners.inAir.find(name),
    flownAlone: (name) => flightListeners.flownAlone(name),
    forgetFlight: (name) => flightListeners.inAir.forget(name),
    hearingFlights: () => flights.listening(),
    onWrite(listener) {
      writeListeners.add(listener);
      return () => writeListeners.delete(listener);
    },
    close() {
      for (const channel of channels.values()) channel.close();
      channels.clear();
      writeListeners.clear();
      flightListeners.clear();
      flights.close();
      writes.close();
      alone.close();
    },
  };
}

function defineCommands(client: Redis & Partial<PollerCommands>): void {
  // ioredis sends EVALSHA and mends a NOSCRIPT (a flushed or restarted Redis) by sending EVAL.
  if (client.pollerTick) return;
  client.defineCommand("pollerTick", { numberOfKeys: 2, lua: TICK });
  client.defineCommand("pollerFlight", { numberOfKeys: 4, lua: FLIGHT });
  client.defineCommand("pollerLand", { numberOfKeys: 2, lua: LAND_BODY });
  client.defineCommand("pollerMark", { numberOfKeys: 1, lua: MARK });
  client.defineCommand("pollerRelease", { numberOfKeys: 1, lua: RELEASE });
}

function parseUpdate(text: string): PollerUpdate | undefined {
  try {
    const value = JSON.parse(text) as Partial<PollerUpdate>;
    if (typeof value.seq !== "number" || typeof value.from !== "string") return undefined;
    if (typeof value.epoch !== "string" || !("answer" in value)) return undefined;
    return value as PollerUpdate;
  } catch {
    return undefined;
  }
}

function parseNotice(text: string): WriteNotice | undefined {
  try {
    const value = JSON.parse(text) as Partial<WriteNotice>;
    if (typeof value.keyHash !== "string" || typeof value.from !== "string") return undefined;
    if (!Array.isArray(value.reads)) return undefined;
    return value as WriteNotice;
  } catch {
    return undefined;
  }
}
