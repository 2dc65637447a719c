import { createHash } from "node:crypto";
import { getLiveDirectiveArgumentValues, getLiveDirectiveNode } from "@n1ru4l/graphql-live-query";
import { type ExecutionArgs, type ExecutionResult, GraphQLError } from "graphql";
import { gatewayError } from "../../errors.ts";
import type { GatewayContext, ReadRoute } from "../execution/context.ts";
import { LatestResults } from "../live/latest-results.ts";
import type { FollowedRead, LiveHub, ReadWatcher } from "../live/live-hub.ts";
import { type ReadAnswer, type ReadTemplate, requestDigest } from "../live/live-reads.ts";
import { type Throttle, throttle } from "../live/live-throttle.ts";
import { endAtExpiry } from "../live/stream-lifetime.ts";
import { type DocumentFactsCache, selectionKey } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import type { LiveQueryOptions } from "./use-live-queries.ts";

export type Execute = (args: ExecutionArgs) => unknown;
export type Execution = { result: ExecutionResult; reads: Reads };
export type Reads = Map<string, { template: ReadTemplate; answer: ReadAnswer | undefined }>;
export type LiveContext = GatewayContext & {
  socket?: object;
  request?: Request;
  params?: { extensions?: Record<string, unknown> };
};

/** What every live query a plugin follows shares with the others. */
export interface Following {
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
export class FollowedQuery extends LatestResults<ExecutionResult> implements ReadWatcher {
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

export function tooManyReads(reads: number, maxReads: number): ExecutionResult {
  const refusal = gatewayError(
    "COST_LIMIT_EXCEEDED",
    `This live query would keep ${reads} upstream reads polled; a live query may keep at most ` +
      `${maxReads} (MAX_LIVE_QUERY_READS). Ask for fewer fields or smaller lists.`,
    { cost: { liveReads: reads, maxLiveReads: maxReads } },
  );
  return { errors: [requestLevel(refusal)] };
}
