import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import { describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { ConversationStatusHub } from "../../src/gateway/conversation-status-hub.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { SandboxOptions } from "../../src/sandbox/server.ts";
import type { UpstreamClient } from "../../src/upstream/client.ts";
import { ACME, ACME_READONLY, GLOBEX, type Harness, startHarness } from "./harness.ts";
import { sandboxEndedAt } from "./sandbox-answers.ts";

const LIVE = SEED_IDS.acmeLiveConversation;

const SUBSCRIPTION = /* GraphQL */ `
  subscription Follow($id: ID!) {
    conversationStatus(id: $id) { conversation { id status } duration startedAt endedAt ended }
  }
`;

/** The figures alone: no list request per update (for a test that starves the rate limit). */
const FIGURES_ONLY = /* GraphQL */ `
  subscription Follow($id: ID!) {
    conversationStatus(id: $id) { duration startedAt endedAt ended }
  }
`;

interface StatusUpdate {
  conversation?: { id: string; status: string | null };
  duration: number | null;
  startedAt: string | null;
  endedAt: string | null;
  ended: boolean;
}

interface Payload {
  data?: { conversationStatus: StatusUpdate } | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

// ---------------------------------------------------------------------------------------------
// Harnesses: each test gets its own sandbox clock, so a live call's timeline is known, and its
// own gateway, so poller counts and upstream logs are the test's alone: the tests run
// concurrently (most of their time is spent waiting for a clock).

type OnFinished = (cleanup: () => Promise<void>) => void;

async function start(
  onTestFinished: OnFinished,
  sandbox: SandboxOptions,
  gateway: { pollIntervalMs?: number } = {},
): Promise<Harness> {
  const harness = await startHarness({
    sandbox: { callIntervalMs: 600_000, ...sandbox },
    gateway: { pollIntervalMs: 100, ...gateway },
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= harness.close();
    return closing;
  };
  onTestFinished(close);
  return { ...harness, close };
}

/** Status polls (operation 8) the sandbox received since the last take, by API key. */
function takePolls(harness: Harness, conversationId: string = LIVE): string[] {
  const path = `/v1/conversations/${conversationId}/status`;
  const polls = harness.sandbox.requests
    .filter((request) => request.method === "GET" && request.path === path)
    .map((request) => request.headers.authorization ?? "");
  harness.sandbox.clearRequests();
  return polls;
}

// ---------------------------------------------------------------------------------------------
// GraphQL over SSE, "distinct connections" mode (yoga's default): one POST per subscription,
// answered with `event: next` messages and a final `event: complete`.

type SseMessage = { event: "next"; payload: Payload } | { event: "complete" };

interface SseSubscription {
  status: number;
  contentType: string | null;
  /** Every message received so far, in order. */
  messages: SseMessage[];
  /** Resolves when the stream ends: true when the server sent `event: complete` first. */
  finished: Promise<boolean>;
  /** Waits (bounded) until at least `count` `next` payloads arrived. */
  nexts(count: number, timeoutMs?: number): Promise<Payload[]>;
  /** Hangs up, as a browser tab that closes. */
  disconnect(): void;
}

async function subscribeSse(
  harness: Harness,
  id: string,
  authorization: string | null = ACME,
  query = SUBSCRIPTION,
): Promise<SseSubscription> {
  const controller = new AbortController();
  const response = await fetch(`${harness.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(authorization === null ? {} : { authorization }),
    },
    body: JSON.stringify({ query, variables: { id } }),
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  const body = response.body;
  if (!body) throw new Error("SSE response without a body");
  const finished = (async () => {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let completed = false;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split("\n").filter((line) => line !== "" && !line.startsWith(":"));
          if (lines.length === 0) continue; // keep-alive comment
          const event = lines
            .find((line) => line.startsWith("event:"))
            ?.slice(6)
            .trim();
          const data = lines
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).replace(/^ /, ""))
            .join("\n");
          if (completed) throw new Error(`SSE message after complete: ${block}`);
          if (event === "next") messages.push({ event: "next", payload: JSON.parse(data) });
          else if (event === "complete") {
            messages.push({ event: "complete" });
            completed = true;
          } else throw new Error(`unexpected SSE message: ${block}`);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return completed;
  })();
  finished.catch(() => {}); // awaited by the tests that care
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    messages,
    finished,
    async nexts(count, timeoutMs = 3_000) {
      await vi.waitFor(
        () => {
          expect(messages.filter((m) => m.event === "next").length).toBeGreaterThanOrEqual(count);
        },
        { timeout: timeoutMs, interval: 10 },
      );
      return payloads(messages);
    },
    disconnect: () => controller.abort(),
  };
}

function payloads(messages: SseMessage[]): Payload[] {
  return messages.flatMap((m) => (m.event === "next" ? [m.payload] : []));
}

/** `promise`, or a failure naming `what` if it has not settled within `timeoutMs`. */
async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits (bounded) for the stream to end; true when it ended with `event: complete`. */
function untilFinished(subscription: SseSubscription, timeoutMs = 5_000): Promise<boolean> {
  return within(subscription.finished, timeoutMs, "SSE stream still open");
}

function updates(list: Payload[]): StatusUpdate[] {
  return list.map((payload) => {
    expect(payload.errors).toBeUndefined();
    const update = payload.data?.conversationStatus;
    if (!update) throw new Error(`payload without data: ${JSON.stringify(payload)}`);
    return update;
  });
}

/**
 * A whole live call as one subscriber saw it: durations never go back, no two consecutive
 * updates are equal, only the last has ended, and it carries the call's final figures.
 */
function expectWholeCall(
  seen: StatusUpdate[],
  callDurationMs: number,
  { everySecond = true } = {},
): void {
  expect(seen.length).toBeGreaterThanOrEqual(2);
  const durations = seen.map((update) => update.duration ?? -1);
  for (let i = 1; i < seen.length; i++) {
    expect(durations[i]).toBeGreaterThanOrEqual(durations[i - 1] ?? 0);
    expect(seen[i]).not.toEqual(seen[i - 1]);
  }
  // Whole seconds, rounded down: the ended call reports floor(length); while in progress the
  // duration counts up to ceil(length) - 1, one update per second when polls are frequent.
  const finalSeconds = Math.floor(callDurationMs / 1000);
  expect(durations.at(-1)).toBe(finalSeconds);
  if (everySecond) {
    const lastInProgress = Math.ceil(callDurationMs / 1000) - 1;
    expect(durations.slice(0, -1)).toEqual(
      Array.from({ length: seen.length - 1 }, (_, i) => lastInProgress - seen.length + 2 + i),
    );
  }
  const startedAt = seen[0]?.startedAt ?? "";
  const selected = "conversation" in (seen[0] ?? {});
  for (const [index, update] of seen.slice(0, -1).entries()) {
    // The conversation is read just after its figures: the call may end in between, but only
    // for the last update before the end.
    const lastInProgress = index === seen.length - 2;
    expect(update).toEqual({
      ...(selected && {
        conversation: {
          id: LIVE,
          status: lastInProgress ? expect.stringMatching(/^(IN_PROGRESS|SUCCESS)$/) : "IN_PROGRESS",
        },
      }),
      duration: update.duration,
      startedAt,
      endedAt: null,
      ended: false,
    });
  }
  expect(seen.at(-1)).toEqual({
    ...(selected && { conversation: { id: LIVE, status: "SUCCESS" } }),
    duration: finalSeconds,
    startedAt,
    endedAt: sandboxEndedAt(startedAt, callDurationMs),
    ended: true,
  });
}

function errorCodes(payload: Payload | undefined): unknown[] {
  return (payload?.errors ?? []).map((error) => error.extensions?.code);
}

// ---------------------------------------------------------------------------------------------

describe.concurrent("Subscription.conversationStatus over SSE", () => {
  it("follows a live call: only changes, non-decreasing duration, ended last, then completes by itself", async ({
    onTestFinished,
  }) => {
    // The seeded live call started 10% of its length ago: it ends 1.35 s from now, and its
    // duration ticks to 1 while in progress, then ends with 1 too (only endedAt changes).
    const callDurationMs = 1_500;
    const harness = await start(onTestFinished, { callDurationMs });
    const subscription = await subscribeSse(harness, LIVE);
    expect(subscription.status).toBe(200);
    expect(subscription.contentType).toMatch(/^text\/event-stream/);

    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages.at(-1)).toEqual({ event: "complete" });
    expectWholeCall(updates(payloads(subscription.messages)), callDurationMs);

    // Far more polls than updates: unchanged answers were not sent on.
    const polls = takePolls(harness);
    expect(polls.length).toBeGreaterThan(payloads(subscription.messages).length + 3);
    expect(new Set(polls)).toEqual(new Set([ACME]));

    // The call is over: no poller is left, nothing polls any more.
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    await sleep(300);
    expect(takePolls(harness)).toEqual([]);
  });

  it("ends at once with NOT_FOUND (data null) for a conversation that does not exist", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const subscription = await subscribeSse(harness, "cnv_does_not_exist");
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages).toHaveLength(2);
    const [payload] = payloads(subscription.messages);
    expect(payload?.data).toBeNull();
    expect(errorCodes(payload)).toEqual(["NOT_FOUND"]);
    expect(payload?.errors?.[0]?.extensions?.upstream).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    expect(payload?.errors?.[0]?.extensions?.http).toEqual({ status: 404 });
    expect(subscription.messages[1]).toEqual({ event: "complete" });
    expect(takePolls(harness, "cnv_does_not_exist")).toEqual([ACME]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });

  it("answers NOT_FOUND to another organization's key, even while the owner follows the call (tenant isolation)", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 30_000 });
    const owner = await subscribeSse(harness, LIVE, ACME);
    await owner.nexts(1);
    takePolls(harness);
    const subscription = await subscribeSse(harness, LIVE, GLOBEX);
    expect(await untilFinished(subscription)).toBe(true);
    const [payload] = payloads(subscription.messages);
    expect(subscription.messages).toHaveLength(2);
    expect(payload?.data).toBeNull();
    expect(errorCodes(payload)).toEqual(["NOT_FOUND"]);
    expect(JSON.stringify(payload)).not.toContain("duration");
    expect(takePolls(harness).filter((key) => key === GLOBEX)).toEqual([GLOBEX]);
    // The owner's stream is untouched: still open, no error, its poller alone remains.
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    expect(owner.messages.every((m) => m.event === "next" && !m.payload.errors)).toBe(true);
    owner.disconnect();
  });

  it("sends one ended update and completes for a call that is already over", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const subscription = await subscribeSse(harness, SEED_IDS.acmeConversation);
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages).toHaveLength(2);
    const [update] = updates(payloads(subscription.messages));
    expect(update).toMatchObject({
      conversation: { id: SEED_IDS.acmeConversation, status: "SUCCESS" },
      ended: true,
    });
    expect(update?.endedAt).toBe(
      new Date(Date.parse(update?.startedAt ?? "") + (update?.duration ?? 0) * 1000).toISOString(),
    );
    expect(takePolls(harness, SEED_IDS.acmeConversation)).toEqual([ACME]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });

  it("rejects an ID with the wrong prefix with BAD_USER_INPUT, without an upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    for (const id of [SEED_IDS.acmeAgent, "cnv_", ""]) {
      const subscription = await subscribeSse(harness, id);
      expect(await untilFinished(subscription)).toBe(true);
      const [payload] = payloads(subscription.messages);
      expect(subscription.messages).toHaveLength(2);
      expect(payload?.data ?? null).toBeNull();
      expect(errorCodes(payload)).toEqual(["BAD_USER_INPUT"]);
    }
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });

  it("rejects a subscription without an API key with UNAUTHENTICATED, without an upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const subscription = await subscribeSse(harness, LIVE, null);
    expect(subscription.status).toBe(401);
    expect(await untilFinished(subscription)).toBe(true);
    const [payload] = payloads(subscription.messages);
    expect(subscription.messages).toHaveLength(2);
    expect(payload?.data ?? null).toBeNull();
    expect(errorCodes(payload)).toEqual(["UNAUTHENTICATED"]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });
});

describe.concurrent("conversationStatus pollers", () => {
  it("shares one poller among the subscribers of one (key, conversation): one poll stream upstream", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const first = await subscribeSse(harness, LIVE);
    await first.nexts(1);
    expect(hub.pollerCount).toBe(1);

    const second = await subscribeSse(harness, LIVE);
    await second.nexts(1);
    expect(hub.pollerCount).toBe(1);

    // One poller polls at most once per interval (100 ms; 95 for timer slack): over a window,
    // two subscribers cause no more polls than that, where two pollers would cause twice as many.
    takePolls(harness);
    const from = performance.now();
    await sleep(600);
    const together = takePolls(harness);
    const elapsed = performance.now() - from;
    expect(new Set(together)).toEqual(new Set([ACME]));
    expect(together.length).toBeGreaterThanOrEqual(2);
    expect(together.length).toBeLessThanOrEqual(Math.floor(elapsed / 95) + 1);
    // Both saw the same first update: the one the shared poller fetched.
    expect(payloads(second.messages)[0]).toEqual(payloads(first.messages).at(-1));

    // One subscriber leaving keeps the poller for the other.
    first.disconnect();
    await sleep(250);
    expect(hub.pollerCount).toBe(1);
    expect(takePolls(harness).length).toBeGreaterThanOrEqual(1);

    // The last one leaving stops it: no more upstream requests.
    second.disconnect();
    await vi.waitFor(() => expect(hub.pollerCount).toBe(0), { timeout: 2_000, interval: 10 });
    await sleep(100);
    takePolls(harness);
    await sleep(300);
    expect(takePolls(harness)).toEqual([]);
  });

  it("gives another API key its own poller, and stops each when its subscribers leave", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const acme = await subscribeSse(harness, LIVE, ACME);
    const readonly = await subscribeSse(harness, LIVE, ACME_READONLY);
    await acme.nexts(1);
    await readonly.nexts(1);
    expect(hub.pollerCount).toBe(2);
    // Both keys read the same call.
    const [fromAcme] = updates(payloads(acme.messages));
    const [fromReadonly] = updates(payloads(readonly.messages));
    expect(fromReadonly?.startedAt).toBe(fromAcme?.startedAt);

    takePolls(harness);
    await sleep(400);
    const polls = takePolls(harness);
    expect(polls.filter((key) => key === ACME).length).toBeGreaterThanOrEqual(1);
    expect(polls.filter((key) => key === ACME_READONLY).length).toBeGreaterThanOrEqual(1);
    expect(polls.filter((key) => key !== ACME && key !== ACME_READONLY)).toEqual([]);

    acme.disconnect();
    await vi.waitFor(() => expect(hub.pollerCount).toBe(1), { timeout: 2_000, interval: 10 });
    await sleep(100);
    takePolls(harness);
    await sleep(300);
    const after = takePolls(harness);
    expect(after).not.toContain(ACME);
    expect(after).toContain(ACME_READONLY);

    readonly.disconnect();
    await vi.waitFor(() => expect(hub.pollerCount).toBe(0), { timeout: 2_000, interval: 10 });
    await sleep(100);
    takePolls(harness);
    await sleep(250);
    expect(takePolls(harness)).toEqual([]);
  });

  it("sends a subscriber joining an existing poller the latest value at once, without a poll", async ({
    onTestFinished,
  }) => {
    // Polls are 5 s apart: only the shared poller's latest value can answer the newcomer quickly.
    const harness = await start(
      onTestFinished,
      { callDurationMs: 60_000 },
      { pollIntervalMs: 5_000 },
    );
    const first = await subscribeSse(harness, LIVE);
    const [latest] = updates(await first.nexts(1));
    expect(takePolls(harness)).toEqual([ACME]);

    const joinedAt = Date.now();
    const second = await subscribeSse(harness, LIVE);
    const [received] = updates(await second.nexts(1, 1_000));
    expect(Date.now() - joinedAt).toBeLessThan(1_000);
    expect(received).toEqual(latest);
    expect(takePolls(harness)).toEqual([]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    first.disconnect();
    second.disconnect();
    await vi.waitFor(() => expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0), {
      timeout: 2_000,
      interval: 10,
    });
  });

  it("does not leave a poll loop behind when the only subscriber leaves during a poll", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    // The first poll takes 400 ms upstream; the subscriber hangs up while it is in flight.
    harness.sandbox.injectFault({ path: `/v1/conversations/${LIVE}/status`, delayMs: 400 });
    const subscription = await subscribeSse(harness, LIVE);
    await vi.waitFor(() => expect(harness.sandbox.requests).toHaveLength(1), {
      timeout: 2_000,
      interval: 5,
    });
    subscription.disconnect();
    await vi.waitFor(() => expect(hub.pollerCount).toBe(0), { timeout: 2_000, interval: 10 });
    await sleep(800); // the slow answer is due at 400 ms; then four poll intervals pass
    expect(takePolls(harness)).toEqual([ACME]);
    expect(subscription.messages).toEqual([]);
  });

  it("stops every poller and ends the streams when the gateway closes", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const subscription = await subscribeSse(harness, LIVE);
    await subscription.nexts(1);
    expect(hub.pollerCount).toBe(1);
    const requests = harness.sandbox.requests;
    await harness.close();
    expect(hub.pollerCount).toBe(0);
    expect(await untilFinished(subscription, 2_000)).toBe(true);
    const seen = requests.length;
    await sleep(300);
    expect(requests.length).toBe(seen);
  });
});

describe.concurrent("conversationStatus when the upstream fails", () => {
  const STATUS_PATH = `/v1/conversations/${LIVE}/status`;

  it("rides out a few transient upstream failures without telling the subscriber", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const subscription = await subscribeSse(harness, LIVE);
    await subscription.nexts(1);
    // Two whole polls fail (each GET is tried three times on 503), then the upstream recovers.
    harness.sandbox.injectFault({ path: STATUS_PATH, status: 503, times: 6 });
    takePolls(harness);
    // The duration ticks every second: the next update proves the poller kept going.
    await subscription.nexts(2, 2_500);
    expect(takePolls(harness).length).toBeGreaterThan(6);
    const seen = updates(payloads(subscription.messages));
    expect(seen[1]?.duration).toBe((seen[0]?.duration ?? 0) + 1);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    subscription.disconnect();
  });

  it("ends with UPSTREAM_ERROR once the upstream keeps failing, and stops polling", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    // 500 is not retried by the client: each poll is one request. Five failures are tolerated.
    harness.sandbox.injectFault({ path: STATUS_PATH, status: 500, times: 1_000 });
    const subscription = await subscribeSse(harness, LIVE);
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages).toHaveLength(2);
    const [payload] = payloads(subscription.messages);
    expect(payload?.data).toBeNull();
    expect(errorCodes(payload)).toEqual(["UPSTREAM_ERROR"]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    expect(takePolls(harness)).toHaveLength(6);
    await sleep(300);
    expect(takePolls(harness)).toEqual([]);
  });

  it("waits for the rate-limit window to reset after a 429 instead of failing the stream", async ({
    onTestFinished,
  }) => {
    // Two requests per second for the organization; the poller would like ten.
    const callDurationMs = 1_000;
    const harness = await start(onTestFinished, {
      callDurationMs,
      rateLimit: 2,
      rateWindowSeconds: 1,
    });
    const startedAt = Date.now();
    const subscription = await subscribeSse(harness, LIVE, ACME, FIGURES_ONLY);
    expect(await untilFinished(subscription)).toBe(true);
    expectWholeCall(updates(payloads(subscription.messages)), callDurationMs, {
      everySecond: false,
    });
    // At most one 429 per window: the poller does not hammer a closed window.
    const windows = Math.ceil((Date.now() - startedAt) / 1_000) + 1;
    const limited = harness.sandbox.requests.filter((request) => request.status === 429);
    expect(limited.length).toBeLessThanOrEqual(windows);
  });

  it("keeps a stalled subscriber from breaking the poller it shares, and gives it the latest state", async () => {
    // An upstream whose duration changes on every poll, and polls back to back: far more
    // updates than a subscriber that stopped reading could queue.
    let polls = 0;
    const upstream: UpstreamClient = {
      async request<T>() {
        polls += 1;
        const body = {
          id: "cnv_fast",
          status: "IN_PROGRESS",
          duration: polls,
          startedAt: "2026-01-05T09:00:00.000Z",
          endedAt: null,
        };
        return { status: 200, body: body as T, rateLimit: undefined, requestId: undefined };
      },
      isReachable: async () => true,
      close: async () => {},
    };
    const hub = new ConversationStatusHub({ upstream, intervalMs: 0 });
    const stalled = hub.subscribe(ACME, "cnv_fast");
    const reader = hub.subscribe(ACME, "cnv_fast");
    try {
      expect(await stalled.next()).toMatchObject({ done: false, value: { duration: 1 } });
      const readPast = async (target: number): Promise<number> => {
        let last = 0;
        while (last < target) {
          const { value, done } = await reader.next();
          expect(done).toBe(false);
          if (value instanceof Error || value === undefined) throw value ?? new Error("no value");
          expect(value.duration).toBeGreaterThan(last);
          last = value.duration ?? 0;
        }
        return last;
      };
      // Repeater refuses a 1025th pending push: go well past it.
      const last = await within(readPast(1_100), 5_000, "the reading subscriber stalled too");
      expect(hub.pollerCount).toBe(1);
      // The stalled subscriber resumes with the newest state, not the backlog.
      const resumed = await stalled.next();
      expect(resumed.done).toBe(false);
      expect((resumed.value as { duration: number }).duration).toBeGreaterThanOrEqual(last);
    } finally {
      await stalled.return?.();
      await reader.return?.();
      hub.close();
    }
    expect(hub.pollerCount).toBe(0);
    const after = polls;
    await sleep(50);
    expect(polls).toBe(after);
  });
});

describe.concurrent("Subscription.conversationStatus over graphql-ws", () => {
  function wsClient(harness: Harness, authorization = ACME) {
    return createClient({
      url: `${harness.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: authorization },
      retryAttempts: 0,
      lazy: true,
    });
  }

  it("follows a live call and completes after the call has ended", async ({ onTestFinished }) => {
    const callDurationMs = 2_000; // ends 1.8 s from now: durations 0, 1, then 2 and ended
    const harness = await start(onTestFinished, { callDurationMs });
    const client = wsClient(harness);
    try {
      const received: Payload[] = [];
      const iterate = (async () => {
        for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
          received.push(result as Payload);
      })();
      await within(iterate, 5_000, "graphql-ws subscription still open");
      expectWholeCall(updates(received), callDurationMs);
      expect(new Set(takePolls(harness))).toEqual(new Set([ACME]));
      expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it("shares the SSE subscribers' poller, and stops it when the last socket drops", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const sse = await subscribeSse(harness, LIVE);
    await sse.nexts(1);
    const leaving = wsClient(harness);
    const dropping = wsClient(harness);
    try {
      const iterators = [leaving, dropping].map((client) =>
        client.iterate<{ conversationStatus: StatusUpdate }>({
          query: SUBSCRIPTION,
          variables: { id: LIVE },
        }),
      );
      for (const iterator of iterators) {
        const first = await within(iterator.next(), 2_000, "no first update over graphql-ws");
        expect(first.done).toBe(false);
        expect(first.value?.data?.conversationStatus.conversation?.id).toBe(LIVE);
      }
      expect(hub.pollerCount).toBe(1);

      // The SSE subscriber hangs up and one socket completes its subscription: one is left.
      sse.disconnect();
      await iterators[0]?.return?.();
      await sleep(250);
      expect(hub.pollerCount).toBe(1);

      // The last socket is cut without a goodbye: the poller stops all the same.
      dropping.terminate();
      await vi.waitFor(() => expect(hub.pollerCount).toBe(0), { timeout: 2_000, interval: 10 });
      await sleep(100);
      takePolls(harness);
      await sleep(250);
      expect(takePolls(harness)).toEqual([]);
    } finally {
      await leaving.dispose();
      await dropping.dispose();
    }
  });

  it("rejects a socket without an API key with UNAUTHENTICATED, without an upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const client = createClient({
      url: `${harness.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const received: Payload[] = [];
      for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
        received.push(result as Payload);
      expect(received).toHaveLength(1);
      expect(errorCodes(received[0])).toEqual(["UNAUTHENTICATED"]);
      expect(received[0]?.errors?.[0]?.extensions?.http).toEqual({ status: 401 });
      expect(harness.takeUpstreamRequests()).toEqual([]);
      expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it("answers NOT_FOUND to another organization's key, then completes", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 30_000 });
    const client = wsClient(harness, GLOBEX);
    try {
      const received: Payload[] = [];
      for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
        received.push(result as Payload);
      expect(received).toHaveLength(1);
      expect(received[0]?.data).toBeNull();
      expect(errorCodes(received[0])).toEqual(["NOT_FOUND"]);
      expect(received[0]?.errors?.[0]?.extensions?.http).toEqual({ status: 404 });
      expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});

describe("graphql-ws connection params", () => {
  const shapes: Array<[string, Record<string, unknown>]> = [
    ["Authorization", { Authorization: ACME }],
    ["authorization", { authorization: ACME }],
    ["headers.Authorization", { headers: { Authorization: ACME } }],
  ];
  for (const [where, connectionParams] of shapes) {
    it(`read the API key from ${where}`, async ({ onTestFinished }) => {
      const harness = await start(onTestFinished, {});
      const client = createClient({
        url: `${harness.url.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams,
        retryAttempts: 0,
        lazy: true,
      });
      try {
        const received: Payload[] = [];
        const variables = { id: "cnv_does_not_exist" };
        for await (const result of client.iterate({ query: SUBSCRIPTION, variables }))
          received.push(result as Payload);
        // NOT_FOUND, not UNAUTHENTICATED: the key reached the upstream.
        expect(errorCodes(received[0])).toEqual(["NOT_FOUND"]);
        expect(harness.sandbox.requests.map((request) => request.headers.authorization)).toEqual([
          ACME,
        ]);
      } finally {
        await client.dispose();
      }
    });
  }
});
