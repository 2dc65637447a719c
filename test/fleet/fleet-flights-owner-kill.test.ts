import { describe, expect, it } from "vitest";
import { type HeldUpstream, startHeldUpstream } from "../gateway/held-upstream.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import { type RunningScript, scriptPerTest } from "../support/scripts.ts";
import { CURSOR_SECRET, metric, waitUntil } from "./fleet-harness.ts";

// A fleet-wide upstream flight whose owner PROCESS dies (SIGKILL) with its call in flight: three
// `npm start` processes on one real store, and a held upstream in the test process that outlives
// them. The in-process test (fleet-flights.test.ts) only cuts the owner's Redis link.

const closing = closedAfterEachTest();
const ALPHA = "Bearer k_alpha";
const BETA = "Bearer k_beta";
const ORG = "{ organization { name } }";
/** The cap of a wait and the lease's life: far above the bound the observed latency gives. */
const WAIT_MS = 5_000;
/**
 * How long the upstream holds each warm-up read: the latency each instance then observes. Its
 * bound (about 4×) is how long a survivor waits: long enough for both of its reads to be seen
 * waiting at once on a busy machine.
 */
const SLOW_MS = 400;

interface Process {
  url: string;
  run: RunningScript;
  graphql(authorization: string): Promise<string | undefined>;
  metrics(): Promise<string>;
  readyz(): Promise<Record<string, unknown>>;
}

/** Organization GETs the upstream saw for `token` (a key's name without "Bearer "). */
const orgGetsOf = (upstream: HeldUpstream, token: string) =>
  upstream.requests.filter(
    (request, i) => request === "GET /v1/organization" && upstream.tokens[i] === token,
  ).length;

async function counter(instance: Process, outcome: string): Promise<number> {
  return (
    metric(await instance.metrics(), `voicegraph_fleet_flights_total{outcome="${outcome}"}`) ?? 0
  );
}

/** Resolves once each process waits on at least `count` flights of other instances. */
async function waitingOn(processes: Process[], count: number): Promise<void> {
  await waitUntil(
    async () => {
      const counts = await Promise.all(
        processes.map(
          async (p) => metric(await p.metrics(), "voicegraph_fleet_flights_waiting") ?? 0,
        ),
      );
      return counts.every((n) => n >= count);
    },
    5_000,
    `${count} flights waited on by each process`,
  );
}

describe("a fleet flight whose owner process is killed", () => {
  const start = scriptPerTest("src/main.ts", {
    CURSOR_SECRET,
    LOG_LEVEL: "warn",
    PORT: "0",
    UPSTREAM_FLEET_FLIGHT_WAIT_MS: String(WAIT_MS),
    // Every upstream request the test counts is a call some instance chose to make.
    UPSTREAM_MAX_RETRIES: "0",
  });

  async function startProcesses(env: Record<string, string>, count: number) {
    const runs = Array.from({ length: count }, () => start(env));
    return Promise.all(
      runs.map(async (run): Promise<Process> => {
        const banner = await run.stdoutWith(/GraphQL at (http:\S+)\/graphql/);
        const url = /GraphQL at (http:\S+)\/graphql/.exec(banner)?.[1];
        if (url === undefined) throw new Error(`no banner: ${JSON.stringify(run.output())}`);
        return {
          url,
          run,
          async graphql(authorization) {
            const response = await fetch(`${url}/graphql`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization },
              body: JSON.stringify({ query: ORG }),
            });
            const body = (await response.json()) as {
              data?: { organization?: { name: string } } | null;
            };
            return body.data?.organization?.name;
          },
          metrics: async () => (await fetch(`${url}/metrics`)).text(),
          readyz: async () =>
            (await (await fetch(`${url}/readyz`)).json()) as Record<string, unknown>,
        };
      }),
    );
  }

  it("lets the others answer within the latency's bound, and share one call again once its lease ends", async () => {
    const store = closing(await startFleetStore());
    const upstream = closing(
      await startHeldUpstream({
        keys: { k_alpha: "org_a", k_beta: "org_b" },
        agents: { org_a: ["agt_a1"], org_b: ["agt_b1"] },
      }),
    );
    const processes = await startProcesses({ UPSTREAM_URL: upstream.url, ...store.env }, 3);
    const [owner, b, c] = processes as [Process, Process, Process];
    const survivors = [b, c];
    const expected: Record<string, string> = { [ALPHA]: "org_a v0", [BETA]: "org_b v0" };

    // Each key proves itself on each process first (no key probe stands between the steps
    // below), each read held a while: each instance owns its warm-up flights and times them, so
    // it observes an upstream of about SLOW_MS. Twice round: each process's last lease of each
    // flight then came after another's, so it knows the flight is shared and asks before it
    // calls (a first read that could not be shared, Redis not confirmed yet, names no owner).
    for (const instance of [...processes, ...processes]) {
      for (const key of [ALPHA, BETA]) {
        upstream.hold(true);
        const answer = instance.graphql(key);
        await upstream.held(1);
        await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
        upstream.hold(false);
        upstream.release();
        expect(await answer).toBe(expected[key]);
      }
    }

    // The owner takes both keys' flights and calls; the upstream holds both calls.
    const before = { alpha: orgGetsOf(upstream, "k_alpha"), beta: orgGetsOf(upstream, "k_beta") };
    upstream.hold(true);
    const ownerReads = [ALPHA, BETA].map((key) => owner.graphql(key).catch(() => ""));
    await upstream.held(2);
    const leasedAt = Date.now();
    const reads = survivors.flatMap((instance) =>
      [ALPHA, BETA].map(async (key) => ({ key, name: await instance.graphql(key) })),
    );
    await waitingOn(survivors, 2);
    const killed = new Promise((resolve) =>
      owner.run.child.once("exit", (_code, signal) => resolve(signal)),
    );
    owner.run.child.kill("SIGKILL");
    expect(await killed).toBe("SIGKILL");
    const killedAt = Date.now();

    // Each survivor's waits end at its bound, 4 × its observed latency + 50 ms (about 1.7 s),
    // not at the cap (a wait of WAIT_MS would end about 4.8 s after the kill): then it calls
    // itself, and those calls are held too (the owner's two dead ones are still among the held).
    await upstream.held(2 + 4, 10_000);
    const fellBackMs = Date.now() - killedAt;
    expect(fellBackMs).toBeLessThan(3_000);
    upstream.hold(false);
    upstream.release();
    for (const { key, name } of await Promise.all(reads)) expect(name).toBe(expected[key]);
    // Nobody was answered by the other key's call, and each key cost its owner's one call and
    // one of each survivor's.
    expect(orgGetsOf(upstream, "k_alpha") - before.alpha).toBe(3);
    expect(orgGetsOf(upstream, "k_beta") - before.beta).toBe(3);
    for (const instance of survivors) {
      expect(await counter(instance, "timeout")).toBe(2);
      expect(await counter(instance, "joined")).toBe(0);
      expect(await instance.readyz()).toMatchObject({ flightFallbacks: { timeout: 2 } });
    }
    // The owner's reads died with it.
    expect(await Promise.all(ownerReads)).toEqual(["", ""]);

    // The dead owner's leases outlive it by at most their life (WAIT_MS from when it took them;
    // nobody can give them up): till then each read of these flights waits its bound and calls
    // itself. Waited out here, so the fleet is seen sharing again.
    await waitUntil(
      async () => (await store.keys("*flight*:lease")).length === 0,
      leasedAt + WAIT_MS + 2_000 - Date.now(),
      "the dead owner's leases gone",
    );
    const owned = await counter(b, "owned");
    const again = { alpha: orgGetsOf(upstream, "k_alpha"), beta: orgGetsOf(upstream, "k_beta") };
    upstream.hold(true);
    const bReads = [ALPHA, BETA].map(async (key) => ({ key, name: await b.graphql(key) }));
    await upstream.held(2);
    const cReads = [ALPHA, BETA].map(async (key) => ({ key, name: await c.graphql(key) }));
    await waitingOn([c], 2);
    upstream.hold(false);
    upstream.release();
    for (const { key, name } of await Promise.all([...bReads, ...cReads])) {
      expect(name).toBe(expected[key]);
    }
    expect(orgGetsOf(upstream, "k_alpha") - again.alpha).toBe(1);
    expect(orgGetsOf(upstream, "k_beta") - again.beta).toBe(1);
    expect(await counter(b, "owned")).toBe(owned + 2);
    expect(await counter(c, "joined")).toBe(2);
    expect(await counter(c, "timeout")).toBe(2);
  });
});
