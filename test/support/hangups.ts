import { request } from "node:http";
import fc from "fast-check";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";

// Clients that hang up: requests to a gateway cut at points fast-check picks (before the body is
// whole, before the answer, while identical reads share a call, during a stream), and what a
// test asks of the gateway afterwards: alive, no unhandled rejection, no upstream call left out.

/** What a request asks for, and how it is answered. */
export type Shape = "shared" | "query" | "defer-multipart" | "defer-sse" | "subscription";

/** Where a request is cut: at its run's common instant, at its own, or before its body is whole. */
export type CutPoint = { at: "together" } | { at: "own"; ms: number } | { at: "mid-body" };

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
    { weight: 3, arbitrary: fc.record({ at: fc.constant("own" as const), ms: fc.nat(40) }) },
    { weight: 1, arbitrary: fc.constant<CutPoint>({ at: "mid-body" }) },
  ),
});

/** A run of `min` to `max` requests, most of them cut at one instant as a load's end cuts them. */
export function cutRunArb(min: number, max: number): fc.Arbitrary<CutRun> {
  return fc.record({
    togetherMs: fc.integer({ min: 2, max: 30 }),
    cuts: fc.array(cutArb, { minLength: min, maxLength: max }),
  });
}

/** How a request ended: cut by the client, or answered whole first (its body as read). */
export type Ending = { cut: true } | { cut: false; status: number; body: string };

/** Sends `cut`'s request to `url` and hangs up at its point, unless the answer ends first. */
export function sendAndCut(url: string, cut: Cut, togetherMs: number): Promise<Ending> {
  const { query, variables } = DOCUMENTS[cut.shape];
  const body = Buffer.from(JSON.stringify({ query, ...(variables ? { variables } : {}) }));
  const cutInMs =
    cut.point.at === "together"
      ? Math.max(0, togetherMs - cut.startMs)
      : cut.point.at === "own"
        ? cut.point.ms
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
      const end = (ending: Ending) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.destroy();
        resolve(ending);
      };
      req.on("error", () => end({ cut: true }));
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", () => end({ cut: true }));
        res.on("end", () =>
          end({ cut: false, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      });
      if (cut.point.at === "mid-body") req.write(body.subarray(0, body.length >> 1));
      else req.end(body);
      const timer = setTimeout(() => end({ cut: true }), cutInMs);
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
