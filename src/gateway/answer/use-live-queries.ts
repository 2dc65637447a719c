import { createHash } from "node:crypto";
import {
  getLiveDirectiveArgumentValues,
  getLiveDirectiveNode,
  isLiveQueryOperationDefinitionNode,
  NoLiveMixedWithDeferStreamRule,
} from "@n1ru4l/graphql-live-query";
import jsonPatch from "fast-json-patch";
import { type ExecutionArgs, type ExecutionResult, GraphQLError } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { UpstreamRequest } from "../../upstream/client.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import {
  type GatewayContext,
  type ReadRoute,
  type SendUpstream,
  settle,
} from "../execution/context.ts";
import { type FactFlow, factFlow } from "../execution/operation-facts.ts";
import { LatestResults } from "../live/latest-results.ts";
import type { FollowedRead, LiveHub, ReadWatcher } from "../live/live-hub.ts";
import {
  answerOf,
  type ReadAnswer,
  type ReadTemplate,
  refusalOf,
  replay,
  requestDigest,
  requestKeyOf,
  templateOf,
} from "../live/live-reads.ts";
import { type LiveTimers, type Throttle, throttle } from "../live/live-throttle.ts";
import { endAtExpiry, shuttingDown } from "../live/stream-lifetime.ts";
import { type DocumentFactsCache, selectionKey } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import type { SubscriptionCounts } from "./subscription-bounds.ts";
import { upstreamReport } from "./use-upstream-report.ts";

export interface LiveQueryOptions {
  hub: LiveHub;
  /** The gateway's facts of each document. */
  documents: DocumentFactsCache;
  /** The gateway's naming of keys (createKeyHasher). */
  keyHash: KeyHasher;
  /** The subscription counts: a live query is one subscription for every limit. */
  counts: SubscriptionCounts;
  /** A fresh context for one re-execution (its own loads, budget and deadline). */
  freshContext: (subscriber: GatewayContext) => GatewayContext;
  /** MAX_LIVE_QUERY_READS: most distinct upstream GETs one live query may keep polled. */
  maxReads: number;
  /** The clock `@live(throttle:)` reads; tests move their own. */
  timers?: LiveTimers;
}

/** The request extension that asks for JSON Patches after the first result. */
export const PATCH_EXTENSION = "livePatch";

/** What a client that asked for plain JSON is told: the answer, once. */
export const NOT_LIVE = {
  live: false,
  reason:
    "This answer is not kept current: ask for text/event-stream or multipart/mixed, or use graphql-ws.",
} as const;

/** What an operation whose `@live(if:)` is false or null is told: the answer, once. */
export const SWITCHED_OFF = {
  live: false,
  reason: "This answer is not kept current: `@live(if:)` is false or null.",
} as const;

type Execute = (args: ExecutionArgs) => unknown;
type Execution = { result: ExecutionResult; reads: Reads };
type Reads = Map<string, { template: ReadTemplate; answer: ReadAnswer | undefined }>;
type LiveContext = GatewayContext & {
  socket?: object;
  request?: Request;
  params?: { extensions?: Record<string, unknown> };
};

/** Judged against MAX_LIVE_QUERY_READS before any call: the cost limit's static estimate. */
const LIVE_FACTS = factFlow({ reads: ["estimatedUpstreamCalls"] });

/** Media types of a client that takes several results for one request. */
const STREAMING = /text\/event-stream|multipart\/mixed/i;

/**
 * `query … @live` (@n1ru4l/graphql-live-query's directive): the first result is the answer;
 * the gateway then follows every upstream GET that answer read, through the live hub's shared
 * pollers, and executes the query again, with its reads answered from the pollers' fresh copies,
 * whenever one of them changed; a result is pushed only when it differs from the last one. A
 * client that takes one JSON answer gets it once, with `extensions.live` saying so.
 */
export function useLiveQueries(options: LiveQueryOptions): Plugin & { facts: FactFlow } {
  const { hub } = options;
  // Per key and selection, the execution under way at a count of changes: the subscribers of
  // one change to one query (same key, document and variables) share one execution.
  const executions = new Map<string, { changes: number; run: Promise<Execution> }>();
  const following: Following = { hub, options, shared, answering };
  return {
    facts: LIVE_FACTS,
    onValidate({ addValidationRule }) {
      addValidationRule(NoLiveMixedWithDeferStreamRule);
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = options.documents.of(args.document).operation(args.operationName);
      if (!operation) return undefined;
      if (!isLiveQueryOperationDefinitionNode(operation, args.variableValues)) {
        // `@live(if: false)` or `if: null`: answered once, and the answer says so.
        if (getLiveDirectiveNode(operation)) {
          setExecuteFn(async (run) =>
            notLive((await executeFn(run)) as ExecutionResult, SWITCHED_OFF),
          );
        }
        return undefined;
      }
      const context = args.contextValue as unknown as LiveContext;
      const streams =
        context.socket !== undefined ||
        STREAMING.test(context.request?.headers.get("accept") ?? "");
      if (!streams) {
        setExecuteFn(async (run) => notLive((await executeFn(run)) as ExecutionResult));
        return undefined;
      }
      setExecuteFn((run) => runLive(run, executeFn as Execute) as never);
      const wantsPatches = context.params?.extensions?.[PATCH_EXTENSION] === "json-patch";
      return wantsPatches ? { onExecuteDone: patching as never } : undefined;
    },
  };

  async function runLive(args: ExecutionArgs, execute: Execute) {
    const context = args.contextValue as LiveContext;
    const authorization = context.authorization ?? "";
    if (hub.shuttingDown) return { errors: [requestLevel(shuttingDown() as GraphQLError)] };
    // Judged before any call from the static estimate, and again from the reads actually made.
    const estimated = LIVE_FACTS.read(context, "estimatedUpstreamCalls");
    if (estimated > options.maxReads) return tooManyReads(estimated, options.maxReads);
    const hash = options.keyHash(authorization);
    const connection = context.socket ?? context.request;
    // A full server refuses before any call; the slot itself is taken only once the first
    // answer shows the key accepted, so no refused key ever holds one.
    try {
      options.counts.check(hash, connection);
    } catch (error) {
      return { errors: [requestLevel(error as GraphQLError)] };
    }
    const reads: Reads = new Map();
    const version = hub.versionNow();
    // A read another live query of this key already polls is answered from its poller, if no
    // write was answered since it was read: a new subscriber costs no call for what is followed.
    context.reads.hook = answering(reads, hash, true);
    let first: ExecutionResult;
    try {
      first = (await execute(args)) as ExecutionResult;
    } finally {
      context.reads.hook = undefined;
    }
    // The first result reports its upstream traffic as the same query's plain answer does.
    const operation = options.documents.of(args.document).operation(args.operationName);
    first = { ...first, extensions: upstreamReport(first, context, operation).extensions };
    if (reads.size > options.maxReads) return tooManyReads(reads.size, options.maxReads);
    // The upstream refused the key: the answer says so, once, and nothing is followed.
    for (const read of reads.values()) {
      if (read.answer !== undefined && refusalOf(read.answer)) return first;
    }
    try {
      options.counts.take(hash, connection);
    } catch (error) {
      return { errors: [requestLevel(error as GraphQLError)] };
    }
    // The stream keeps this context as long as it is open, and every later execution has a
    // fresh one: the first execution's loads, calls and usage go now, and over graphql-ws the
    // operation's own Request (an HTTP stream's request lives as long as its response anyway).
    settle(context);
    context.request = undefined;
    const opening = { first, reads, version };
    return new FollowedQuery(following, args, execute, context, authorization, connection, opening);
  }

  /** The execution of this selection at the present count of changes: shared, or started. */
  function shared(selection: string, start: () => Promise<Execution>): Promise<Execution> {
    const changes = hub.changes;
    const under = executions.get(selection);
    if (under && under.changes === changes) return under.run;
    const run = start();
    const entry = { changes, run };
    executions.set(selection, entry);
    const forget = () => {
      if (executions.get(selection) === entry) executions.delete(selection);
    };
    run.then(forget, forget);
    return run;
  }

  /**
   * A live query's reads: a polled one from its poller's answer (for a first execution, only one
   * read since the last write answered), any other from the upstream.
   */
  function answering(reads: Reads, hash: string, first: boolean): NonNullable<ReadRoute["hook"]> {
    const record = recording(reads);
    return async (req, send) => {
      if (req.method !== "GET") return send(req);
      const key = requestKeyOf(req);
      const known = first ? await hub.freshAnswer(hash, key) : hub.answer(hash, key);
      if (known === undefined) return record(req, send);
      reads.set(key, { template: templateOf(req), answer: known });
      // Answered by the poller's read, which was counted when it was made.
      req.onShared?.("polled");
      return replay(known);
    };
  }
}

/** What every live query a plugin follows shares with the others. */
interface Following {
  hub: LiveHub;
  options: LiveQueryOptions;
  /** The execution of a selection at the present count of changes: shared, or started. */
  shared(selection: string, start: () => Promise<Execution>): Promise<Execution>;
  /** The reads of an execution: recorded, or answered from the pollers. */
  answering(reads: Reads, hash: string, first: boolean): NonNullable<ReadRoute["hook"]>;
}

const NOTHING_TO_CANCEL = () => undefined;

/**
 * One open live query: its stream, and what it follows. Its state is in fields of this one
 * object, where closures made per step kept a scope and a function each, for as long as the
 * stream is open: it is the watcher of its reads, and the hub ends it at a drain.
 */
class FollowedQuery extends LatestResults<ExecutionResult> implements ReadWatcher {
  readonly #following: Following;
  readonly #args: ExecutionArgs;
  readonly #execute: Execute;
  readonly #context: LiveContext;
  readonly #authorization: string;
  readonly #hash: string;
  /** A digest: the key's text holds the whole document, and every open live query keeps it. */
  readonly #selection: string;
  /** Its place in the subscription counts, given back once it ends. */
  readonly #connection: object | undefined;
  /** Only with `@live(throttle:)`: without it every result is compared and pushed as it comes. */
  readonly #pace: Throttle<ExecutionResult> | undefined;
  readonly #watches = new Map<string, FollowedRead>();
  #expiry: () => void = NOTHING_TO_CANCEL;
  /** A digest of the last result pushed, not its text: an open live query keeps 44 characters. */
  #last: string;
  #stopped = false;
  #dirty = false;
  #running = false;

  constructor(
    following: Following,
    args: ExecutionArgs,
    execute: Execute,
    context: LiveContext,
    authorization: string,
    connection: object | undefined,
    /** The first result and what it read: pushed once, never held here. */
    opening: { first: ExecutionResult; reads: Reads; version: string | undefined },
  ) {
    super();
    const { hub, options } = following;
    this.#following = following;
    this.#args = args;
    this.#execute = execute;
    this.#context = context;
    this.#authorization = authorization;
    this.#hash = options.keyHash(authorization);
    this.#selection = requestDigest(`${this.#hash}\n${selectionKey(options.documents, args)}`);
    this.#connection = connection;
    const throttleMs = throttleOf(options.documents, args);
    // Only the newest result matters to a slow reader: it gets the latest when it reads again.
    this.#last = digestOf(opening.first);
    this.push(opening.first);
    this.#pace =
      throttleMs === null
        ? undefined
        : throttle((result) => this.#deliver(result), throttleMs, options.timers);
    this.#watch(opening.reads, opening.version);
    hub.addStream(this);
    const session = context.session;
    if (session) this.#expiry = endAtExpiry(session, (error) => this.ended(error));
  }

  /** A read it follows changed: it runs again, once for however many changes came meanwhile. */
  changed(): void {
    this.#dirty = true;
    if (!this.#running && !this.#stopped) void this.#again();
  }

  /** Ends the stream with one last result: the error that ended it. */
  ended(error?: Error): void {
    if (this.#stopped) return;
    if (error) this.push({ errors: [asGraphQLError(error)] });
    this.end();
  }

  protected override finished(): void {
    this.#following.hub.dropStream(this);
    this.#expiry();
    this.#stopped = true;
    this.#pace?.stop();
    for (const read of this.#watches.values()) read.unwatch(this);
    this.#watches.clear();
    this.#following.options.counts.release(this.#hash, this.#connection);
  }

  /** Compared with the last result pushed, not computed: a change undone while held is no change. */
  #deliver(result: ExecutionResult): boolean {
    const digest = digestOf(result);
    if (digest === this.#last) return false;
    this.#last = digest;
    this.push(result);
    return true;
  }

  #watch(reads: Reads, readAt: string | undefined): void {
    const { hub } = this.#following;
    for (const [key, read] of reads) {
      if (!this.#watches.has(key)) {
        const seen =
          read.answer === undefined ? undefined : { answer: read.answer, version: readAt };
        this.#watches.set(key, hub.watch(this.#authorization, key, read.template, seen, this));
      }
    }
    for (const [key, watched] of this.#watches) {
      if (!reads.has(key)) {
        watched.unwatch(this);
        this.#watches.delete(key);
      }
    }
  }

  async #again(): Promise<void> {
    const { hub, options, shared, answering } = this.#following;
    this.#running = true;
    try {
      while (this.#dirty && !this.#stopped) {
        this.#dirty = false;
        const readAt = hub.versionNow();
        const { result, reads } = await shared(this.#selection, () => {
          const fresh = options.freshContext(this.#context);
          const reads: Reads = new Map();
          fresh.reads.hook = answering(reads, this.#hash, false);
          // No signal: the request's lasts as long as the stream, and graphql-tools leaves a
          // listener on it per execution; a shared execution is no one subscriber's to cancel.
          const run = this.#execute({
            ...this.#args,
            contextValue: fresh,
            signal: undefined,
          } as ExecutionArgs) as Promise<ExecutionResult>;
          return Promise.resolve(run).then((result) => ({ result, reads }));
        });
        if (this.#stopped) return;
        // The bound holds on every execution: a change may make a query read more.
        if (reads.size > options.maxReads) {
          const refusal = tooManyReads(reads.size, options.maxReads);
          this.ended(refusal.errors?.[0] as GraphQLError);
          return;
        }
        this.#watch(reads, readAt);
        if (this.#pace) this.#pace.offer(result);
        else this.#deliver(result);
      }
    } catch (error) {
      this.end(error);
    } finally {
      this.#running = false;
    }
  }
}

/** Sends each GET as usual, and notes what it read and what the upstream answered. */
function recording(reads: Reads): NonNullable<ReadRoute["hook"]> {
  return async (req: UpstreamRequest, send: SendUpstream) => {
    if (req.method !== "GET") return send(req);
    const key = requestKeyOf(req);
    try {
      const response = await send(req);
      reads.set(key, { template: templateOf(req), answer: answerOf(response) });
      return response;
    } catch (error) {
      reads.set(key, { template: templateOf(req), answer: answerOf(error) });
      throw error;
    }
  };
}

/** `@live(throttle: N)`: the fewest milliseconds between two pushes, or none. */
function throttleOf(documents: DocumentFactsCache, args: ExecutionArgs): number | null {
  const operation = documents.of(args.document).operation(args.operationName);
  const directive = operation ? getLiveDirectiveNode(operation) : undefined;
  if (!directive) return null;
  const { throttleValue } = getLiveDirectiveArgumentValues(directive, args.variableValues);
  return typeof throttleValue === "number" && throttleValue > 0 ? throttleValue : null;
}

/** What two results are compared by: a digest of their data and their errors' messages and paths. */
function digestOf(result: ExecutionResult): string {
  const text = JSON.stringify([
    result.data ?? null,
    (result.errors ?? []).map((error) => [error.message, error.path ?? null]),
  ]);
  return createHash("sha256").update(text).digest("base64");
}

/** An error a stream ends with, as its last result carries it (masked like any other). */
function asGraphQLError(error: Error): GraphQLError {
  return error instanceof GraphQLError
    ? error
    : new GraphQLError(error.message, { originalError: error });
}

function tooManyReads(reads: number, maxReads: number): ExecutionResult {
  const refusal = gatewayError(
    "COST_LIMIT_EXCEEDED",
    `This live query would keep ${reads} upstream reads polled; a live query may keep at most ` +
      `${maxReads} (MAX_LIVE_QUERY_READS). Ask for fewer fields or smaller lists.`,
    { cost: { liveReads: reads, maxLiveReads: maxReads } },
  );
  return { errors: [requestLevel(refusal)] };
}

function notLive(
  result: ExecutionResult,
  notice: typeof NOT_LIVE | typeof SWITCHED_OFF = NOT_LIVE,
): ExecutionResult {
  return { ...result, extensions: { ...result.extensions, live: notice } };
}

type Result = ExecutionResult & { revision?: number; patch?: unknown };

/**
 * JSON Patch (RFC 6902) on request, in @n1ru4l/graphql-live-query-patch's wire shape: the first
 * result whole with `revision: 1`, then `{ patch, revision }` from one result to the next.
 */
function patching({ result }: { result: unknown }) {
  if (!isAsyncIterable(result)) return undefined;
  let previous: Record<string, unknown> | undefined;
  let revision = 0;
  return {
    onNext({ result: next, setResult }: { result: Result; setResult: (r: Result) => void }) {
      revision += 1;
      const data = (next.data ?? {}) as Record<string, unknown>;
      if (previous === undefined) {
        previous = data;
        setResult({ ...next, revision });
        return;
      }
      const patch = jsonPatch.compare(previous, data);
      previous = data;
      const { data: _whole, ...rest } = next;
      setResult({ ...rest, patch, revision });
    },
  };
}
