import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import type { Harness } from "../gateway/harness.ts";
import {
  payloads,
  type SseSubscription,
  subscribeSse,
  updates,
} from "../gateway/subscriptions-support.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import { scriptPerTest } from "../support/scripts.ts";
import { ACME, CURSOR_SECRET, metric, startFleet, waitUntil } from "./fleet-harness.ts";

// One poller per watched live call across the fleet, and fail-over when its owner dies.

const closing = closedAfterEachTest();
const LIVE = SEED_IDS.acmeLiveConversation;
const INTERVAL_MS = 200;
const asHarness = (url: string) => ({ url }) as Harness;

/** Polls of operation 8 for the live call in the sandbox's log since `since`. */
function pollsIn(requests: ReadonlyArray<{ method: string; url: string }>, since = 0) {
  return requests.slice(since).filter((r) => r.url.startsWith(`/v1/conversations/${LIVE}/status`))
    .length;
}

/** The durations a subscriber saw, checked to be in order and without a repeat. */
function durationsOf(subscription: SseSubscription): number[] {
  const seen = updates(payloads(subscription.messages)).map((update) => update.duration ?? -1);
  for (let i = 1; i < seen.length; i++) {
    expect(seen[i], `updates ${JSON.stringify(seen)}`).toBeGreaterThan(seen[i - 1] as number);
  }
  return seen;
}

describe("conversationStatus pollers across a fleet", () => {
  it("polls a live call watched from three instances once, not three times", async () => {
    const fleet = closing(
      await startFleet(3, {
        sandbox: { callDurationMs: 60_000 },
        gateway: { pollIntervalMs: INTERVAL_MS },
      }),
    );
    const subscriptions = await Promise.all(
      fleet.instances.map((instance) => subscribeSse(asHarness(instance.url), LIVE, ACME)),
    );
    try {
      for (const subscription of subscriptions) await subscription.nexts(1);
      const flown = async () => {
        const texts = await Promise.all(fleet.instances.map((instance) => instance.metrics()));
        // The flights an instance called for (owned, or fallen back): a poll flown would be one.
        return texts
          .flatMap((text) => text.split("\n"))
          .filter((line) => line.startsWith("voicegraph_fleet_flights_total{"))
          .filter((line) => !line.includes('outcome="joined"'))
          .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
      };
      const flownBefore = await flown();
      const since = fleet.sandbox.requests.length;
      const from = performance.now();
      // A window of at least five polls, however slowly a busy machine polls.
      await waitUntil(() => pollsIn(fleet.sandbox.requests, since) >= 5, 15_000, "five polls");
      // A poll is leased already: never a fleet flight too (other reads of the window may be).
      const flownInWindow = (await flown()) - flownBefore;
      const others = fleet.sandbox.requests.length - since - pollsIn(fleet.sandbox.requests, since);
      expect(flownInWindow).toBeLessThanOrEqual(others);
      const polls = pollsIn(fleet.sandbox.requests, since);
      const intervals = (performance.now() - from) / INTERVAL_MS;
      // One poller: at most one poll an interval; three would make about three.
      expect(polls).toBeLessThanOrEqual(Math.floor(intervals) + 3);
      const owned = fleet.instances.map(
        (instance) => instance.gateway.conversationStatusHub.ownedPollerCount,
      );
      expect(owned.sort()).toEqual([0, 0, 1]);
      // Every instance's subscriber hears the owner's updates (a follower on a busy cluster may
      // hear its second a poll or two later than the owner's own).
      for (const subscription of subscriptions)
        await waitUntil(() => durationsOf(subscription).length > 1, 15_000, "a second update");
      // Every poll is counted like any other call, and carries a request ID.
      const metrics = await Promise.all(fleet.instances.map((instance) => instance.metrics()));
      const counted = metrics.map(
        (text) =>
          metric(
            text,
            'voicegraph_upstream_requests_total{route="GET /v1/conversations/{id}/status",status="200"}',
          ) ?? 0,
      );
      expect(counted.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(polls);
      const ids = fleet.sandbox.requests
        .filter((r) => r.url.includes("/status"))
        .map((r) => r.headers["x-request-id"]);
      expect(ids.every((id) => typeof id === "string" && id.startsWith("live-"))).toBe(true);
      expect(
        metrics.map((text) => metric(text, 'voicegraph_fleet_pollers{role="owned"}')).sort(),
      ).toEqual([0, 0, 1]);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }
  });

  it("polls for its own subscribers while Redis is gone, and shares one poller again after", async () => {
    const fleet = closing(
      await startFleet(2, {
        sandbox: { callDurationMs: 60_000 },
        gateway: { pollIntervalMs: INTERVAL_MS },
      }),
    );
    const subscriptions = await Promise.all(
      fleet.instances.map((instance) => subscribeSse(asHarness(instance.url), LIVE, ACME)),
    );
    try {
      for (const subscription of subscriptions) await subscription.nexts(1);
      await fleet.redis.kill();
      const hubs = fleet.instances.map((instance) => instance.gateway.conversationStatusHub);
      await waitUntil(() => hubs.every((hub) => hub.ownedPollerCount === 1), 3_000, "both polling");
      // Each instance goes on delivering on its own: the call's duration ticks once a second.
      const before = subscriptions.map((s) => payloads(s.messages).length);
      await waitUntil(
        () => subscriptions.every((s, i) => payloads(s.messages).length > (before[i] as number)),
        5_000,
        "both delivering without Redis",
      );
      await fleet.redis.restart();
      await waitUntil(
        () =>
          hubs
            .map((hub) => hub.ownedPollerCount)
            .sort()
            .join() === "0,1",
        10_000,
        "one poller again",
      );
      for (const subscription of subscriptions) durationsOf(subscription);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }
  });
});

describe("conversationStatus pollers for a key the upstream refuses", () => {
  it("end every stream with the refusal and leave nothing in Redis", async () => {
    const fleet = closing(await startFleet(2, { gateway: { pollIntervalMs: INTERVAL_MS } }));
    const refused = "Bearer sk_test_not_a_key";
    const subscriptions = await Promise.all(
      fleet.instances.map((instance) => subscribeSse(asHarness(instance.url), LIVE, refused)),
    );
    for (const subscription of subscriptions) {
      await subscription.finished;
      const last = payloads(subscription.messages).at(-1);
      expect(last?.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
    const names = (await fleet.redis.keys()).join("\n");
    expect(names).not.toContain(createKeyHasher(CURSOR_SECRET)(refused));
  });
});

describe("conversationStatus pollers when Redis restarts empty", () => {
  it("followers keep delivering: no gap longer than three intervals, whatever the call's age", async () => {
    // The sandbox's clock runs ten times fast: the call's duration (whole seconds) changes at
    // every poll, so every poll is an update and a gap is a gap in delivery, not in news.
    const began = Date.now();
    const fleet = closing(
      await startFleet(2, {
        sandbox: { callDurationMs: 600_000, now: () => began + (Date.now() - began) * 10 },
        gateway: { pollIntervalMs: INTERVAL_MS },
      }),
    );
    const subscriptions = await Promise.all(
      fleet.instances.map((instance) => subscribeSse(asHarness(instance.url), LIVE, ACME)),
    );
    const hubs = fleet.instances.map((instance) => instance.gateway.conversationStatusHub);
    try {
      // An old call: the fleet's update counter is well past where a fresh Redis starts it.
      for (const subscription of subscriptions) await subscription.nexts(12, 10_000);
      // Each subscriber's longest wait between two updates, from just before the kill.
      const lastAt = subscriptions.map(() => Date.now());
      const counts = subscriptions.map((s) => payloads(s.messages).length);
      const longest = subscriptions.map(() => 0);
      const watch = setInterval(() => {
        const now = Date.now();
        subscriptions.forEach((s, i) => {
          const count = payloads(s.messages).length;
          if (count > (counts[i] as number)) {
            counts[i] = count;
            lastAt[i] = now;
          }
          longest[i] = Math.max(longest[i] as number, now - (lastAt[i] as number));
        });
      }, 10);
      try {
        await fleet.redis.kill();
        await fleet.redis.restart();
        await waitUntil(
          () => fleet.instances.every((instance) => instance.redis.available()),
          10_000,
          "Redis seen again",
        );
        await waitUntil(
          () =>
            hubs
              .map((hub) => hub.ownedPollerCount)
              .sort()
              .join() === "0,1",
          10_000,
          "one poller again",
        );
        // Ten intervals of following the new owner, counted from the restart on.
        const until = counts.map((count) => count + 10);
        await waitUntil(
          () => subscriptions.every((s, i) => payloads(s.messages).length >= (until[i] as number)),
          20 * INTERVAL_MS,
          "ten updates after the restart",
        );
      } finally {
        clearInterval(watch);
      }
      for (const gap of longest) expect(gap).toBeLessThanOrEqual(3 * INTERVAL_MS);
      for (const subscription of subscriptions) durationsOf(subscription);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }
  });
});

describe("a fleet of npm start processes", () => {
  const start = scriptPerTest("src/main.ts", {
    POLL_INTERVAL_MS: String(INTERVAL_MS),
    CURSOR_SECRET,
    LOG_LEVEL: "warn",
    PORT: "0",
  });
  const startWithoutSecret = scriptPerTest("src/main.ts", { PORT: "0" });

  it("hands a dead owner's poller to another instance within about three intervals, with no repeated or reordered update", async () => {
    const redis = closing(await startFleetStore());
    const sandbox = closing(
      await startSandbox({ port: 0, callDurationMs: 60_000, callIntervalMs: 600_000 }),
    );
    const env = { UPSTREAM_URL: sandbox.url, ...redis.env };
    const processes = [start(env), start(env), start(env)];
    const urls: string[] = [];
    for (const process of processes) {
      const banner = await process.stdoutWith(/GraphQL at (http:\S+)\/graphql/);
      urls.push((/GraphQL at (http:\S+)\/graphql/.exec(banner) as RegExpExecArray)[1] as string);
    }
    const subscriptions = await Promise.all(
      urls.map((url) => subscribeSse(asHarness(url), LIVE, ACME)),
    );
    try {
      for (const subscription of subscriptions) await subscription.nexts(1);
      const ownedBy = () =>
        Promise.all(
          urls.map(async (url) =>
            metric(
              await (await fetch(`${url}/metrics`)).text(),
              'voicegraph_fleet_pollers{role="owned"}',
            ),
          ),
        );
      // A member whose first tick finds Redis not ready yet (or slower than its command timeout)
      // polls for its own subscribers for that interval rather than leave a gap; at its next tick
      // it finds the lease held and follows. So: exactly one owner within a few intervals.
      let owners = await ownedBy();
      for (let i = 0; i < 10 && owners.filter((n) => n === 1).length !== 1; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS / 2));
        owners = await ownedBy();
      }
      expect(owners.filter((n) => n === 1)).toHaveLength(1);
      expect(owners.filter((n) => n === 0)).toHaveLength(2);
      const owner = owners.indexOf(1);
      (processes[owner] as { child: { kill(signal: string): void } }).child.kill("SIGKILL");
      const survivors = subscriptions.filter((_, i) => i !== owner);
      const killedAt = Date.now();
      const before = survivors.map((s) => payloads(s.messages).length);
      await waitUntil(
        () => survivors.every((s, i) => payloads(s.messages).length > (before[i] as number)),
        6 * INTERVAL_MS + 2_000,
        "an update after the owner died",
      );
      const gapMs = Date.now() - killedAt;
      // The lease is two intervals (+250 ms) long, a follower tries each interval, a poll follows.
      expect(gapMs).toBeLessThan(4 * INTERVAL_MS + 1_000);
      await new Promise((resolve) => setTimeout(resolve, 5 * INTERVAL_MS));
      for (const subscription of survivors) durationsOf(subscription);
      const survivorUrls = urls.filter((_, i) => i !== owner);
      const owned = await Promise.all(
        survivorUrls.map(async (url) =>
          metric(
            await (await fetch(`${url}/metrics`)).text(),
            'voicegraph_fleet_pollers{role="owned"}',
          ),
        ),
      );
      expect(owned.sort()).toEqual([0, 1]);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }
  });

  it("refuses to start a fleet member without a shared CURSOR_SECRET, in one line naming it", async () => {
    const run = startWithoutSecret({ REDIS_URL: "redis://127.0.0.1:1" });
    const code = await new Promise<number | null>((resolve) =>
      run.child.once("exit", (exitCode) => resolve(exitCode)),
    );
    expect(code).not.toBe(0);
    const { stderr } = run.output();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/REDIS_URL needs CURSOR_SECRET/);
  });
});
