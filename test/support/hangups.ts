import { request } from "node:http";
import fc from "fast-check";
import { TOKEN_HEADER_KEY } from "graphql-sse";
import { WebSocket } from "ws";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { WAIT_MS } from "./wait.ts";

// Clients that hang up: requests to a gateway cut at points fast-check picks (before the body is
// whole, before the answer, while identical reads share a call, during a stream), and what a
// test asks of the gateway afterwards: alive, no unhandled rejection, no upstream call left out.

/** What a request asks for, and how it is answered. */
export type Shape =
  | "shared"
  | "query"
  | "defer-multipart"
  | "defer-sse"
  | "subscription"
  | "ws-shared"
  | "ws-subscription"
  | "sse-single-subscription";

/**
 * Where a request is cut: at its run's common instant, at its own, before its body is whole (on
 * a socket or a single-connection stream: connected, no operation sent), or as the first part of
 * its answer arrives (a stream's first event).
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

const SHARED = { query: "{ agents(first: 5) { edges { node { id } } } }" };
const FOLLOW = {
  query:
    "subscription Follow($id: ID!) { conversationStatus(id: $id) { conversation { id } duration } }",
  variables: { id: SEED_IDS.acmeLiveConversation },
};

const DOCUMENTS: Record<Shape, { query: string; variables?: Record<string, unknown> }> = {
  // Identical reads: they join one call, on one instance and across a fleet.
  shared: SHARED,
  "ws-shared": SHARED,
  query: { query: "{ organization { name } agents(first: 2) { totalCount } }" },
  "defer-multipart": {
    query: "{ organization { name } ... @defer { agents(first: 1) { totalCount } } }",
  },
  "defer-sse": {
    query: "{ organization { name } ... @defer { agents(first: 3) { totalCount } } }",
  },
  subscription: FOLLOW,
  "ws-subscription": FOLLOW,
  "sse-single-subscription": FOLLOW,
};

/** What an HTTP request of each shape accepts (the others are not HTTP requests). */
const ACCEPT: Partial<Record<Shape, string>> = {
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
    { weight: 1, arbitrary: fc.constant<Shape>("ws-shared") },
    { weight: 1, arbitrary: fc.constant<Shape>("ws-subscription") },
    { weight: 1, arbitrary: fc.constant<Shape>("sse-single-subscription") },
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

/** What a transport tells of one operation as it goes. */
interface Listener {
  /** A part of the answer arrived. */
  part(text: string): void;
  /** The answer is whole (its status: HTTP's, or 200 for a socket's `complete`). */
  whole(status: number): void;
  /** The connection failed (it was cut). */
  failed(): void;
}

/** One operation in flight on a transport: `cut` hangs up, however far it has gone. */
type Started = { cut(): void };

/** Sends `cut`'s operation to `url` and hangs up at its point, unless the answer ends first. */
export function sendAndCut(url: string, cut: Cut, togetherMs: number): Promise<Ending> {
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
      let done = false;
      let begun = false;
      const chunks: string[] = [];
      const end = (ending: Ending) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        started.cut();
        resolve(ending);
      };
      const hangUp = () => end({ cut: true, midAnswer: begun });
      const started = TRANSPORTS[TRANSPORT_OF[cut.shape]](url, cut, {
        part(text) {
          begun = true;
          chunks.push(text);
          if (cut.point.at === "first-part") hangUp();
        },
        whole: (status) => end({ cut: false, status, body: chunks.join("") }),
        failed: hangUp,
      });
      const timer = setTimeout(hangUp, cutInMs);
    }, cut.startMs);
  });
}

const TRANSPORT_OF: Record<Shape, keyof typeof TRANSPORTS> = {
  shared: "http",
  query: "http",
  "defer-multipart": "http",
  "defer-sse": "http",
  subscription: "http",
  "ws-shared": "ws",
  "ws-subscription": "ws",
  "sse-single-subscription": "sseSingle",
};

const TRANSPORTS = {
  /** One POST; `mid-body` sends half its body. */
  http(url: string, cut: Cut, listener: Listener): Started {
    const body = Buffer.from(JSON.stringify(DOCUMENTS[cut.shape]));
    const req = request(`${url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: ACCEPT[cut.shape] ?? "application/json",
        authorization: ACME,
        "content-length": body.length,
      },
    });
    req.on("error", listener.failed);
    req.on("response", (res) => {
      res.on("data", (chunk: Buffer) => listener.part(chunk.toString()));
      res.on("error", listener.failed);
      res.on("end", () => listener.whole(res.statusCode ?? 0));
    });
    if (cut.point.at === "mid-body") req.write(body.subarray(0, body.length >> 1));
    else req.end(body);
    return { cut: () => req.destroy() };
  },
  /** graphql-ws spoken by hand; `mid-body`: acknowledged, but no operation sent. */
  ws(url: string, cut: Cut, listener: Listener): Started {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    socket.on("error", listener.failed);
    socket.on("close", listener.failed);
    socket.on("open", () => {
      socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: ACME } }));
    });
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string };
      if (message.type === "connection_ack") {
        if (cut.point.at === "mid-body") return;
        socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: DOCUMENTS[cut.shape] }));
      } else if (message.type === "next" || message.type === "error") {
        listener.part(String(data));
      } else if (message.type === "complete") {
        listener.whole(200);
      }
    });
    return { cut: () => socket.terminate() };
  },
  /** graphql-sse's single connection: reserve, open, then the operation; the stream is cut. */
  sseSingle(url: string, cut: Cut, listener: Listener): Started {
    const endpoint = `${url}/graphql/stream`;
    const leaving = new AbortController();
    const go = async () => {
      const reserved = await fetch(endpoint, {
        method: "PUT",
        headers: { authorization: ACME },
        signal: leaving.signal,
      });
      const token = await reserved.text();
      const stream = await fetch(`${endpoint}?token=${encodeURIComponent(token)}`, {
        headers: { authorization: ACME, accept: "text/event-stream" },
        signal: leaving.signal,
      });
      // `mid-body`: the stream is open, no operation sent on it.
      if (cut.point.at !== "mid-body") {
        await fetch(endpoint, {
          method: "POST",
          headers: {
            authorization: ACME,
            [TOKEN_HEADER_KEY]: token,
            "content-type": "application/json",
          },
          body: JSON.stringify({ ...DOCUMENTS[cut.shape], extensions: { operationId: "1" } }),
          signal: leaving.signal,
        });
      }
      const decoder = new TextDecoder();
      for await (const chunk of stream.body as ReadableStream<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        if (text.includes("event: next")) listener.part(text);
        if (text.includes("event: complete")) return listener.whole(200);
      }
      listener.failed();
    };
    go().catch(listener.failed);
    return { cut: () => leaving.abort() };
  },
};

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
