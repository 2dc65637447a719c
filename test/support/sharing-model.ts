import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { expect } from "vitest";
import { sendJson } from "../upstream/recording-upstream.ts";
import type { TcpProxy } from "./tcp-proxy.ts";
import { wireAgent } from "./wire-agent.ts";

// A model of sharing, checked over interleavings the scheduler picks: two gateways and one
// upstream whose every answer (reads and writes alike) waits for the scheduler; two keys of one
// organization (one of them read-only) and one of another; reads and writes of agents of both
// organizations, with coalescing and the read cache on and off. Every answer:
// - holds only its own organization's data (another's agent is a 404: null);
// - equals a state the upstream held at some instant between its start and its answer, where
//   a write still unanswered when the read started may count as already done (linearizable);
//   without Redis (two gateways that share nothing), where coalescing is on, a read may also
//   answer what the upstream held when a read still in flight on its instance began;
// - is never older than a write answered before the read started: through any instance in a
//   fleet, with the cache on or off (a read joins a call only after Redis shows no write since
//   the call began), through its own instance without one. A client reads its own writes.
// In a fleet the first instance reaches Redis through a real TCP proxy the commands cut and give
// back: a write it makes while cut off reaches Redis only once its link is back (docs/fleet.md),
// so for the other instance it counts as still unanswered (its cache may serve the entry it had,
// and its reads may join a call begun before it); while cut off the first instance joins nothing
// and reads no shared cache, so it still reads the other's writes. Without a fleet, no write
// reaches the other instance at all.

export const KEYS = [
  { token: "k_a_full", org: "a", writes: true },
  { token: "k_a_readonly", org: "a", writes: false },
  { token: "k_b_full", org: "b", writes: true },
] as const;
export const AGENTS = [
  { index: 0, org: "a" },
  { index: 1, org: "a" },
  { index: 2, org: "b" },
] as const;
/** The configurations run (runs: how many sequences each, most where sharing can go wrong). */
export const CONFIGS = [
  { coalesce: true, cacheTtlS: 0, runs: 30 },
  { coalesce: true, cacheTtlS: 60, runs: 30 },
  { coalesce: false, cacheTtlS: 60, runs: 15 },
  { coalesce: false, cacheTtlS: 0, runs: 5 },
] as const;

export type Command =
  | { kind: "read"; key: number; instance: number; agent: number }
  | { kind: "write"; key: number; instance: number; agent: number }
  | { kind: "release" }
  /** The first instance's link to Redis cut, or given back (a real TCP proxy). */
  | { kind: "cut" }
  | { kind: "restore" };

// Most operations go to one agent of the first organization, so they meet in flight and in the
// cache; the others keep the tenant checks busy.
const agentArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.constant(2) },
);
const keyArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constant(2) },
);
export const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      key: keyArb,
      instance: fc.nat(1),
      agent: agentArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("write" as const),
      key: keyArb,
      instance: fc.nat(1),
      agent: agentArb,
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: "release" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "cut" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "restore" as const }) },
);

/** One agent's history at the upstream: each value and the instant it was set. */
interface History {
  org: string;
  values: Array<{ value: string; at: number }>;
}

interface Op {
  id: string;
  kind: "read" | "write";
  key: (typeof KEYS)[number];
  instance: number;
  agentId: string;
  start: number;
  end?: number;
  /** A write: the name it sets; a read: the name it answered (null: no agent). */
  value?: string | null;
  error?: string;
  /** The upstream request this op made itself, if any (its request ID). */
  requested: boolean;
  released: boolean;
}

/** The upstream: state per agent, every answer held until the scheduler releases it. */
export async function startModelUpstream() {
  let clock = 0;
  const tick = () => ++clock;
  const histories = new Map<string, History>();
  const arrivals = new Map<string, () => void>();
  let schedule: ((requestId: string, answer: () => void) => void) | undefined;
  const history = (agentId: string): History | undefined => {
    const org = /^agt_([ab])_/.exec(agentId)?.[1];
    if (org === undefined) return undefined;
    let found = histories.get(agentId);
    if (!found) {
      found = { org, values: [{ value: `${agentId} initial`, at: 0 }] };
      histories.set(agentId, found);
    }
    return found;
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const requestId = String(req.headers["x-request-id"] ?? "");
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const key = KEYS.find((k) => k.token === token);
    const agentId = decodeURIComponent(/^\/v1\/agents\/([^/?]+)$/.exec(req.url ?? "")?.[1] ?? "");
    const own = history(agentId);
    // A read takes the state as it arrives, and may be answered much later (as over a network).
    const seen = own?.values.at(-1)?.value as string;
    const answer = () => {
      if (!key) return sendJson(res, 401, { error: { code: "UNAUTHORIZED", message: "no key" } });
      if (!own || own.org !== key.org) {
        return sendJson(res, 404, { error: { code: "NOT_FOUND", message: "no agent" } });
      }
      if (req.method === "PATCH") {
        if (!key.writes) return sendJson(res, 403, { error: { code: "FORBIDDEN", message: "ro" } });
        const { name } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { name: string };
        own.values.push({ value: name, at: tick() });
        return sendJson(res, 200, wireAgent(agentId, name));
      }
      return sendJson(res, 200, wireAgent(agentId, seen));
    };
    arrivals.get(requestId)?.();
    if (schedule) schedule(requestId, answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tick,
    histories,
    /** Told when the request of this ID arrives. */
    onArrival(requestId: string, listener: () => void) {
      arrivals.set(requestId, listener);
    },
    useScheduler(next: typeof schedule) {
      schedule = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type ModelUpstream = Awaited<ReturnType<typeof startModelUpstream>>;

/** One gateway as the model drives it. */
export interface ModelInstance {
  url: string;
  /** Whether its Redis connection is up (always false without a fleet). */
  redisAvailable(): boolean;
}

/** Two gateways over the model's upstream, with or without one Redis between them. */
export interface SharingWorld {
  fleet: boolean;
  upstream: ModelUpstream;
  instances: ModelInstance[];
  /** A fleet's: the first instance's link to Redis. */
  proxy?: TcpProxy;
  /** Lets what the gateways have under way (with Redis) go on before the next look. */
  settle(): Promise<void>;
}

let run = 0;

/** Runs one sequence of commands under the scheduler; the violations found, if any. */
export async function runModel(
  world: SharingWorld,
  config: (typeof CONFIGS)[number],
  scheduler: fc.Scheduler,
  commands: Command[],
): Promise<string[]> {
  const { upstream, instances, proxy } = world;
  run += 1;
  // From when the first instance's writes may have invalidations still pending: from the start
  // if its link is down (or just back: it applies them before using the cache), else from a cut.
  let unflushedFrom = (instances[0] as ModelInstance).redisAvailable()
    ? Number.POSITIVE_INFINITY
    : upstream.tick();
  const prefix = `r${run}`;
  const agentIds = AGENTS.map((agent) => `agt_${agent.org}_${prefix}_${agent.index}`);
  const ops: Op[] = [];
  const done: Array<Promise<void>> = [];
  upstream.useScheduler((requestId, answer) => {
    const op = ops.find((o) => o.id === requestId);
    scheduler.schedule(Promise.resolve(requestId), `answer ${requestId}`).then(() => {
      if (op) op.released = true;
      answer();
    });
  });
  let writes = 0;

  const start = (command: Extract<Command, { kind: "read" | "write" }>) => {
    const key = KEYS[command.key] as (typeof KEYS)[number];
    const agentId = agentIds[command.agent] as string;
    const id = `${prefix}-op${ops.length}`;
    const op: Op = {
      id,
      kind: command.kind,
      key,
      instance: command.instance,
      agentId,
      start: upstream.tick(),
      requested: false,
      released: false,
    };
    if (command.kind === "write") op.value = `${agentId} w${++writes}`;
    ops.push(op);
    upstream.onArrival(id, () => {
      op.requested = true;
    });
    const instance = instances[command.instance] as ModelInstance;
    const query =
      command.kind === "read"
        ? `{ agent(id: "${agentId}") { id name } }`
        : `mutation { updateAgent(id: "${agentId}", input: { name: "${op.value}" }) { agent { id name } } }`;
    done.push(
      fetch(`${instance.url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${key.token}`,
          "x-request-id": id,
        },
        body: JSON.stringify({ query }),
      })
        .then(async (response) => {
          const body = (await response.json()) as {
            data?: { agent?: { id: string; name: string } | null } | null;
            errors?: Array<{ extensions?: { code?: string } }>;
          };
          op.end = upstream.tick();
          if (op.kind === "read") {
            op.value = body.data?.agent?.name ?? null;
            if (body.data?.agent && body.data.agent.id !== agentId) op.error = "another agent";
          }
          const code = body.errors?.[0]?.extensions?.code;
          if (code !== undefined) op.error = code;
        })
        .catch((error: unknown) => {
          op.end = upstream.tick();
          op.error = String(error);
        }),
    );
    return op;
  };

  /** The op made its own call (now held), joined one still held, or is answered. */
  const parked = (op: Op) =>
    op.end !== undefined ||
    (op.requested && !op.released) ||
    (op.kind === "read" &&
      ops.some(
        (other) =>
          other !== op &&
          other.kind === "read" &&
          other.instance === op.instance &&
          other.key === op.key &&
          other.agentId === op.agentId &&
          other.requested &&
          !other.released,
      ));

  const settle = async () => {
    await world.settle();
    await until(() => ops.every(parked), "every operation parked or answered");
  };

  for (const command of commands) {
    if (command.kind === "release") {
      if (scheduler.count() > 0) await scheduler.waitNext(1);
    } else if (command.kind === "cut") {
      unflushedFrom = Math.min(unflushedFrom, upstream.tick());
      proxy?.cut();
    } else if (command.kind === "restore") {
      proxy?.restore();
    } else {
      start(command);
    }
    await settle();
  }
  // Everything still held is answered, in the scheduler's order.
  const all = Promise.all(done);
  while (ops.some((op) => op.end === undefined)) {
    if (scheduler.count() > 0) await scheduler.waitNext(1);
    else
      await until(
        () => scheduler.count() > 0 || ops.every((op) => op.end !== undefined),
        "progress",
      );
  }
  await all;
  upstream.useScheduler(undefined);
  proxy?.restore();
  return judge(world, config, ops, unflushedFrom);
}

/** Waits (at most 5 s) until `predicate` holds, looking at every millisecond. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  const limit = Date.now() + 5_000;
  while (!predicate()) {
    if (Date.now() > limit) throw new Error(`${what}: not within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Every answer checked against the upstream's history. */
function judge(
  world: SharingWorld,
  config: (typeof CONFIGS)[number],
  ops: Op[],
  unflushedFrom: number,
): string[] {
  const { upstream, fleet } = world;
  const violations: string[] = [];
  const at = (agentId: string, value: string) =>
    upstream.histories.get(agentId)?.values.find((v) => v.value === value)?.at;
  for (const op of ops) {
    if (op.kind !== "read") continue;
    const own = AGENTS.find((agent) => op.agentId.endsWith(`_${agent.index}`))?.org === op.key.org;
    if (op.error !== undefined && op.error !== "NOT_FOUND") {
      violations.push(`${op.id}: error ${op.error}`);
      continue;
    }
    if (!own) {
      if (op.value !== null) violations.push(`${op.id}: another organization's agent: ${op.value}`);
      continue;
    }
    if (typeof op.value !== "string") {
      violations.push(`${op.id}: no answer for its own agent`);
      continue;
    }
    const history = upstream.histories.get(op.agentId);
    const index = history?.values.findIndex((v) => v.value === op.value) ?? -1;
    if (!history || index === -1) {
      violations.push(`${op.id}: a value the upstream never held: ${op.value}`);
      continue;
    }
    // The window: from the read's start (or an earlier start of a write on the agent still
    // unanswered then, or, without a fleet, of a read in flight on its instance) to its end.
    // Without Redis an instance cannot hear of another's writes, and a read may join any call in
    // flight on its instance that no write through that instance detached.
    const alone = !fleet;
    const concurrent = ops.filter(
      (other) =>
        other.agentId === op.agentId &&
        other.start < op.start &&
        (other.end ?? Number.POSITIVE_INFINITY) > op.start &&
        (other.kind === "write" ||
          (config.coalesce && alone && other.instance === op.instance && other.key === op.key)),
    );
    // A write through the first instance while its link was down may not have reached Redis
    // yet: another instance may serve the entry it had before it (at most for the TTL), or join
    // a call begun before it. Without a fleet, no write ever reaches the other instance's cache:
    // it serves what it kept.
    const unflushed = ops.filter(
      (w) =>
        w.kind === "write" &&
        w.agentId === op.agentId &&
        w.instance !== op.instance &&
        (fleet
          ? w.instance === 0 && (w.end ?? Number.POSITIVE_INFINITY) > unflushedFrom
          : config.cacheTtlS > 0) &&
        w.start < op.start,
    );
    const from = Math.min(
      op.start,
      ...concurrent.map((other) => other.start),
      ...unflushed.map((w) => w.start),
    );
    const setAt = history.values[index]?.at as number;
    const replacedAt = history.values[index + 1]?.at ?? Number.POSITIVE_INFINITY;
    if (!(setAt <= (op.end as number) && replacedAt > from)) {
      violations.push(
        `${op.id} (${op.key.token} on ${op.instance}): answered ${op.value}, held from ${setAt} to ${replacedAt}, outside ${from}..${op.end}`,
      );
    }
    // Read-your-writes: no older than a write answered before the read began.
    const seen = ops.filter(
      (w) =>
        w.kind === "write" &&
        w.agentId === op.agentId &&
        w.error === undefined &&
        (w.end as number) < op.start &&
        !unflushed.includes(w) &&
        (!alone || w.instance === op.instance),
    );
    for (const w of seen) {
      const written = at(op.agentId, w.value as string);
      if (written !== undefined && setAt < written) {
        violations.push(`${op.id}: older than ${w.id}'s answered write ${w.value}: ${op.value}`);
      }
    }
  }
  return violations;
}

/** The property for one configuration, its regressions replayed first. */
export async function checkSharingModel(
  world: () => SharingWorld,
  config: (typeof CONFIGS)[number],
  regressions: ReadonlyArray<{ seed: number; path: string }> = [],
  runs: number = config.runs,
): Promise<void> {
  const property = fc.asyncProperty(
    fc.scheduler(),
    fc.array(commandArb, { minLength: 10, maxLength: 18 }),
    async (scheduler, commands) => {
      const violations = await runModel(world(), config, scheduler, commands);
      expect(violations, `${scheduler.report().length} tasks`).toEqual([]);
    },
  );
  for (const regression of regressions) {
    await fc.assert(property, { seed: regression.seed, path: regression.path, endOnFailure: true });
  }
  await fc.assert(property, { numRuns: runs, endOnFailure: true });
}
