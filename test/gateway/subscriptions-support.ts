import { setTimeout as sleep } from "node:timers/promises";
import { type Client, createClient } from "graphql-ws";
import { expect, vi } from "vitest";
import { WebSocket } from "ws";
import type { GatewayOptions } from "../../src/gateway/create-gateway.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { SandboxOptions } from "../../src/sandbox/server.ts";
import type { ManualClock } from "../support/clock.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";
import { sandboxEndedAt } from "./sandbox-answers.ts";

// What the conversationStatus subscription tests share: the operations, a harness per test
// with its own sandbox clock, and a GraphQL-over-SSE client that keeps every message.

export const LIVE = SEED_IDS.acmeLiveConversation;

export const SUBSCRIPTION = /* GraphQL */ `
  subscription Follow($id: ID!) {
    conversationStatus(id: $id) { conversation { id status } duration startedAt endedAt ended }
  }
`;

/** The figures alone: no list request per update (for a test that starves the rate limit). */
export const FIGURES_ONLY = /* GraphQL */ `
  subscription Follow($id: ID!) {
    conversationStatus(id: $id) { duration startedAt endedAt ended }
  }
`;

export interface StatusUpdate {
  conversation?: { id: string; status: string | null };
  duration: number | null;
  startedAt: string | null;
  endedAt: string | null;
  ended: boolean;
}

export interface Payload {
  data?: { conversationStatus: StatusUpdate } | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

// ---------------------------------------------------------------------------------------------
// Harnesses: each test gets its own sandbox clock, so a live call's timeline is known, and its
// own gateway, so poller counts and upstream logs are the test's alone: the tests run
// concurrently (most of their time is spent waiting for a clock).

export type OnFinished = (cleanup: () => Promise<void>) => void;

export async function start(
  onTestFinished: OnFinished,
  sandbox: SandboxOptions,
  gateway: Partial<Omit<GatewayOptions, "upstream">> = {},
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
export function takePolls(harness: Harness, conversationId: string = LIVE): string[] {
  const path = `/v1/conversations/${conversationId}/status`;
  const polls = harness.sandbox.requests
    .filter((request) => request.method === "GET" && request.path === path)
    .map((request) => request.headers.authorization ?? "");
  harness.sandbox.clearRequests();
  return polls;
}

/** Status polls (operation 8) of a conversation the sandbox has received, without taking them. */
export function pollCount(harness: Harness, conversationId: string = LIVE): number {
  const path = `/v1/conversations/${conversationId}/status`;
  return harness.sandbox.requests.filter((r) => r.method === "GET" && r.path === path).length;
}

/**
 * Walks a live call on the sandbox's manual clock: for each step, waits (bounded) for the
 * `updates()` the previous clock caused and for one more poll that found nothing new (it must
 * not be sent on), then moves the clock by the step. A busy machine polls later, never otherwise.
 */
export async function walkCall(
  harness: Harness,
  clock: ManualClock,
  updateCount: () => number,
  stepsMs: number[],
): Promise<void> {
  for (const [index, stepMs] of stepsMs.entries()) {
    await vi.waitFor(() => expect(updateCount()).toBe(index + 1), {
      timeout: WAIT_MS,
      interval: 10,
    });
    const polled = pollCount(harness);
    await vi.waitFor(() => expect(pollCount(harness)).toBeGreaterThan(polled), {
      timeout: WAIT_MS,
      interval: 10,
    });
    expect(updateCount()).toBe(index + 1);
    clock.advance(stepMs);
  }
}

/**
 * Waits (bounded) until the gateway runs `pollers` pollers, lets a poll already under way land
 * (100 ms), then returns the status polls the sandbox receives over the next `overMs`.
 */
export async function pollsOnceSettled(
  harness: Harness,
  { pollers, overMs }: { pollers: number; overMs: number },
): Promise<string[]> {
  const hub = harness.gateway.conversationStatusHub;
  await vi.waitFor(() => expect(hub.pollerCount).toBe(pollers), { timeout: WAIT_MS, interval: 10 });
  await sleep(100);
  takePolls(harness);
  await sleep(overMs);
  return takePolls(harness);
}

// ---------------------------------------------------------------------------------------------
// GraphQL over SSE, "distinct connections" mode (yoga's default): one POST per subscription,
// answered with `event: next` messages and a final `event: complete`.

export type SseMessage = { event: "next"; payload: Payload } | { event: "complete" };

export interface SseSubscription {
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

export async function subscribeSse(
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
    async nexts(count, timeoutMs = WAIT_MS) {
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

export function payloads(messages: SseMessage[]): Payload[] {
  return messages.flatMap((m) => (m.event === "next" ? [m.payload] : []));
}

/** `promise`, or a failure naming `what` if it has not settled within `timeoutMs`. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
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
export function untilFinished(subscription: SseSubscription, timeoutMs = 15_000): Promise<boolean> {
  return within(subscription.finished, timeoutMs, "SSE stream still open");
}

export function updates(list: Payload[]): StatusUpdate[] {
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
export function expectWholeCall(
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

export function errorCodes(payload: Payload | undefined): unknown[] {
  return (payload?.errors ?? []).map((error) => error.extensions?.code);
}

/** A graphql-ws client of the harness's gateway, with `authorization` (Acme's by default). */
export function wsClient(harness: Harness, authorization = ACME): Client {
  return createClient({
    url: `${harness.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: authorization },
    retryAttempts: 0,
    lazy: true,
  });
}
