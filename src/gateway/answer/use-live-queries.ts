import {
  getLiveDirectiveNode,
  isLiveQueryOperationDefinitionNode,
  NoLiveMixedWithDeferStreamRule,
} from "@n1ru4l/graphql-live-query";
import jsonPatch from "fast-json-patch";
import type { ExecutionArgs, ExecutionResult, GraphQLError } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { UpstreamRequest } from "../../upstream/client.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import {
  type GatewayContext,
  type ReadRoute,
  type SendUpstream,
  settle,
} from "../execution/context.ts";
import { type FactFlow, factFlow } from "../execution/operation-facts.ts";
import type { LiveHub } from "../live/live-hub.ts";
import { answerOf, refusalOf, replay, requestKeyOf, templateOf } from "../live/live-reads.ts";
import type { LiveTimers } from "../live/live-throttle.ts";
import { shuttingDown } from "../live/stream-lifetime.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import {
  type Execute,
  type Execution,
  FollowedQuery,
  type Following,
  type LiveContext,
  type Reads,
  tooManyReads,
} from "./followed-query.ts";
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
