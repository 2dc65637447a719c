import { request } from "node:http";
import fc from "fast-check";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { WAIT_MS } from "./wait.ts";

// Clients that hang up: requests to a gateway cut at points fast-check picks (before the body is
// whole, before the answer, while identical reads share a call, during a stream), and what a
// test asks of the gateway afterwards: alive, no unhandled rejection, no upstream call left out.

/** What a request asks for, and how it is answered. */
export type Shape = "shared" | "query" | "defer-multipart" | "defer-sse" | "subscription";

/**
 * Where a request is cut: at its run's common instant, at its own, before its body is whole, or
 * as the first part of its answer arrives (a stream's first event).
 */
export type CutPoint =
  | { at: "together" }
  | { at: "own"; ms: number }
  | { at: "mid-body" }
  | { at: "first-part" };

export interface Cut {
  /** Which gateway of the test it goes to (an index, modulo their number). */
  target: number;
  shape: Shape;
  /** When it starts, from the run's start. */
  startMs: number;
  point: CutPoint;
}

/** One run: its requests, and the instant the "together" ones are cut (a load's end). */
export interface CutRun {
  togetherMs: number;
  cuts: Cut[];
}

const ACME = `Bearer ${DEMO_KEYS.acme}`;

const DOCUMENTS: Record<Shape, { query: string; variables?: Record<string, unknown> }> = {
  // Identical reads: they join one call, on one instance and across a fleet.
  shared: { query: "{ agents(first: 5) { edges { node { id } } } }" },
  query: { query: "{ organization { name } agents(first: 2) { totalCount } }" },
  "defer-multipart": {
    query: "{ organization { name } ... @defer { agents(first: 1) { totalCount } } }",
  },
  "defer-sse": {
    query: "{ organization { name } ... @defer { agents(first: 3) { totalCount } } }",
  },
  subscription: {
    query:
      "subscription Follow($id: ID!) { conversationStatus(id: $id) { conversation { id } duration } }",
    variables: { id: SEED_IDS.acmeLiveConversation },
  },
};

const ACCEPT: Record<Shape, string> = {
  shared: "application/json",
  query: "application/json",
  "defer-multipart": "multipart/mixed",
  "defer-sse": "text/event-stream",
  subscription: "text/event-stream",
};

const cutArb: fc.Arbitrary<Cut> = fc.record({
  target: fc.nat(7),
  shape: fc.oneof(
    { weight: 5, arbitrary: fc.constant<Shape>("shared") },
    { weight: 2, arbitrary: fc.constant<Shape>("query") },
    { weight: 1, arbitrary: fc.constant<Shape>("defer-multipart") },
    { weight: 1, arbitrary: fc.constant<Shape>("defer-sse") },
    { weight: 1, arbitrary: fc.constant<Shape>("subscription") },
  ),
  startMs: fc.nat(12),
  point: fc.oneof(
    { weight: 4, arbitrary: fc.constant<CutPoint>({ at: "together" }) },
    { weight: 3, arbitrary: fc.record({ at: fc.constant("own" as const), ms: fc.nat(80) }) },
    { weight: 1, arbitrary: fc.constant<CutPoint>({ at: "mid-body" }) },
    { weight: 2, arbitrary: fc.constant<CutPoint>({ at: "first-part" }) },
  ),
});

/** A run of `min` to `max` requests, most of them cut at one instant as a load's end cuts them. */
export function cutRunArb(min: number, max: number): fc.Arbitrary<CutRun> {
  return fc.record({
    togetherMs: fc.integer({ min: 2, max: 30 }),
    cuts: fc.array(cutArb, { minLength: min, maxLength: max }),
  });
}

/**
 * How a request ended: cut by the client (`midAnswer`: after its answer began, e.g. a stream's
 * first part), or answered whole first (its body as read).
 */
export type Ending =
  | { cut: true; midAnswer: boolean }
  | { cut: false; status: number; body: string };

/** Sends `cut`'s request to `url` and hangs up at its point, unless the answer ends first. */
export function sendAndCut(url: string, cut: Cut, togetherMs: number): Promise<Ending> {
  const { query, variables } = DOCUMENTS[cut.shape];
  const body = Buffer.from(JSON.stringify({ query, ...(variables ? { variables } : {}) }));
  const cutInMs =
    cut.point.at === "together"
      ? Math.max(0, togetherMs - cut.startMs)
      : cut.point.at === "own"
        ? cut.point.ms
        : cut.point.at === "first-part"
          ? WAIT_MS
          : 0;
  return new Promise((resolve) => {
    setTimeout(() => {
      const req = request(`${url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: ACCEPT[cut.shape],
          authorization: ACME,
          "content-length": body.length,
        },
      });
      let done = false;
      let begun = false;
      const end = (ending: Ending) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.destroy();
        resolve(ending);
      };
      const hangUp = () => end({ cut: true, midAnswer: begun });
      req.on("error", hangUp);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => {
          begun = true;
          chunks.push(chunk);
          if (cut.point.at === "first-part") hangUp();
        });
        res.on("error", hangUp);
        res.on("end", () =>
          end({ cut: false, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      });
      if (cut.point.at === "mid-body") req.write(body.subarray(0, body.length >> 1));
      else req.end(body);
      const timer = setTimeout(hangUp, cutInMs);
    }, cut.startMs);
  });
}

/**
 * Counts the process's unhandled rejections while it is on (vitest fails a run that has one
 * too, but only at its end and without saying which run of a property caused it).
 */
export function watchUnhandledRejections(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  return { seen, stop: () => process.off("unhandledRejection", onRejection) };
}

/**
 * What a whole answer may not say: that a call it shared was aborted by another client's leaving
 * (its own client never left).
 */
export function abortedInAnswer(ending: Ending): boolean {
  return !ending.cut && /aborted/i.test(ending.body);
}

/** Resolves once `inFlight()` is 0: every upstream call ended; fails after WAIT_MS. */
export async function everyCallEnded(inFlight: () => number): Promise<void> {
  const until = Date.now() + WAIT_MS;
  while (inFlight() !== 0) {
    if (Date.now() > until) throw new Error(`${inFlight()} upstream calls still out`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How many of `endings` were cut by their client, and how many of those mid-answer. */
export function cutsIn(endings: readonly Ending[]): { cut: number; midAnswer: number } {
  let cut = 0;
  let midAnswer = 0;
  for (const ending of endings) {
    if (!ending.cut) continue;
    cut += 1;
    if (ending.midAnswer) midAnswer += 1;
  }
  return { cut, midAnswer };
}
