import type { ServerResponse } from "node:http";
import type {
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  GraphQLSchema,
  OperationDefinitionNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import type { CallSignal } from "../../upstream/call-signal.ts";
import { tracingIsOn } from "../../upstream/upstream-span.ts";
import { startOperationDeadline } from "../admission/use-operation-deadline.ts";
import { reportedIn, upstreamReport } from "../answer/use-upstream-report.ts";
import type { Judge, LanePlan } from "../assembly/pipeline.ts";
import { answeredMediaType, yogaCoreOf } from "../assembly/yoga-adapter.ts";
import type { GatewayContext } from "../execution/context.ts";
import { type FactFlow, factFlow } from "../execution/operation-facts.ts";
import type { CompiledQueries } from "../preparation/use-compiled-execution.ts";
import type { DocumentFacts, DocumentFactsCache } from "../shared/document-facts.ts";
import { stringifyWithHttpStatus } from "../shared/http-status.ts";

/** The request the fast path read: what the lane needs of it. */
export interface LaneRequest {
  readonly headers: Headers;
  /** Aborts the operation when the client goes away (no signal of its own made). */
  followDisconnect(operation: Pick<CallSignal, "abort">): void;
}

export interface PreparedLaneOptions {
  schema: GraphQLSchema;
  documents: DocumentFactsCache;
  compiled: CompiledQueries;
  deadlineMs: number;
  /** The prepared texts kept: as many, and as long, as the fast path's own per-text cache. */
  texts: { max: number; maxBytes: number; maxTextBytes: number };
  /** The request's ID, as the request-id plugin takes it, with the log scope named by it. */
  requestIdOf(request: LaneRequest): string;
  /**
   * The operation's context, as yoga makes it for this request and connection: its context
   * factory's, with yoga's own `request` and `params` beside (a rule may read either).
   */
  contextFor(
    request: LaneRequest,
    params: LaneParams,
    requestId: string,
    connection?: object,
  ): GatewayContext;
  /** The operation's metrics, as the metrics plugin starts them; told when it is done. */
  meter(): { done(): void };
  /** Told of each answer the lane writes. */
  onAnswered(): void;
}

export interface PreparedLane {
  /** Learns the documents yoga validated and ran: goes in the pipeline. */
  readonly plugin: Plugin;
  /** What the lane hands the pipeline, produced before its first stage runs (pipeline.ts). */
  readonly facts: FactFlow;
  /**
   * Takes the pipeline's declarations, before yoga is made: the judges it runs, and whether
   * any present entry sends it aside (then it answers nothing). Until then it answers nothing.
   */
  adopt(plan: LanePlan): void;
  /**
   * Answers the request if it is the lane's, and says so. Otherwise it answers nothing and
   * leaves in `serverContext` what yoga must reuse: the request's ID, and the operation's
   * context when an operation began (its reads are not made twice).
   */
  serve(
    request: LaneRequest,
    params: LaneParams,
    res: ServerResponse,
    serverContext: Handover,
  ): Promise<boolean>;
}

export interface LaneParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** What the lane hands yoga when it does not answer (yoga-app.ts's context factory reads it). */
export interface Handover {
  requestId?: string;
  preparedContext?: GatewayContext;
}

/**
 * The prepared lane (docs/operations.md, "The prepared lane"): a query whose text yoga has
 * validated, and whose operation it has compiled, runs again without yoga's request and response
 * machinery: every judge of the pipeline, the deadline, the compiled query, the report and the
 * metrics, then the answer written straight to the socket. It answers only a result without an
 * error, as yoga would answer it: test/gateway/fast-path-differential.property.test.ts holds it
 * to yoga alone over generated requests, test/gateway/prepared-lane.test.ts over selections.
 * A refusal goes to yoga before anything runs; a result with an error goes to yoga with the
 * result, which compiled execution takes as its own run's (use-compiled-execution.ts); a throw
 * goes to yoga with the same context, whose reads hand back what the lane read, so nothing goes
 * upstream twice.
 */
const LANE_FACTS = factFlow({ produces: ["laneResult"] });

export function createPreparedLane(options: PreparedLaneOptions): PreparedLane {
  // By text, bounded as the fast path's own per-text cache is. Each document is held weakly: it
  // and its compiled form live as long as yoga's parser cache keeps them, not longer.
  const prepared = new LRUCache<string, WeakRef<DocumentNode>>({
    max: options.texts.max,
    maxSize: options.texts.maxBytes,
    maxEntrySize: options.texts.maxTextBytes,
    sizeCalculation: (_document, text) => Math.max(1, text.length),
  });
  let judges: readonly Judge[] = [];
  let enabled = false;

  const plugin: Plugin = {
    onYogaInit({ yoga }) {
      if (!enabled) return;
      // A judge a plugin added by another plugin would be yoga's alone: refused at start-up.
      const found = yogaCoreOf(yoga).pluginFunctions("judge");
      if (found.length !== judges.length || found.some((judge, at) => judge !== judges[at])) {
        throw new Error(
          "the prepared lane: yoga's plugins hold a judge that no pipeline entry declares",
        );
      }
    },
    onExecute({ args }) {
      if (!enabled) return;
      const query = (args.contextValue as { params?: { query?: unknown } }).params?.query;
      if (typeof query !== "string" || prepared.get(query)?.deref() === args.document) return;
      const facts = options.documents.of(args.document);
      if (preparable(facts, facts.operation(args.operationName))) {
        prepared.set(query, new WeakRef(args.document));
      }
    },
  };

  /** A query with no directive on its operation, no @defer/@stream and no introspection. */
  function preparable(
    facts: DocumentFacts,
    operation: OperationDefinitionNode | undefined,
  ): operation is OperationDefinitionNode {
    return (
      operation?.operation === "query" &&
      !operation.directives?.length &&
      !facts.incremental &&
      !facts.introspective
    );
  }

  async function serve(
    request: LaneRequest,
    params: LaneParams,
    res: ServerResponse,
    handover: Handover,
  ): Promise<boolean> {
    if (!enabled) return false;
    const document = prepared.get(params.query)?.deref();
    if (document === undefined) return false;
    const operationName = params.operationName ?? null;
    const facts = options.documents.of(document);
    const operation = facts.operation(operationName);
    const compiled = options.compiled.compiledOf(document, operationName);
    if (compiled === undefined || !preparable(facts, operation)) return false;
    const mediaType = answeredMediaType(request.headers.get("accept"));
    if (mediaType === undefined || tracingIsOn()) return false;
    const requestId = options.requestIdOf(request);
    handover.requestId = requestId;
    const context = options.contextFor(request, params, requestId, res.socket ?? undefined);
    const variableValues = params.variables ?? undefined;
    const args: ExecutionArgs = {
      schema: options.schema,
      document,
      operationName,
      variableValues,
      contextValue: context,
    };
    for (const judge of judges) {
      if (judge(args) !== undefined) return false;
    }
    // From here on an operation runs: yoga, if it answers, reuses its context and its reads.
    handover.preparedContext = context;
    const meter = options.meter();
    const stopDeadline = startOperationDeadline(context.operation, options.deadlineMs);
    let result: ExecutionResult;
    try {
      result = (await compiled.query(undefined, context, variableValues)) as ExecutionResult;
    } finally {
      stopDeadline();
    }
    if (result.errors?.length) {
      // Yoga answers errors (masking, status, the catalogue) from this result, not a second run.
      LANE_FACTS.produce(context, "laneResult", result);
      return false;
    }
    meter.done();
    options.onAnswered();
    const report = upstreamReport(result, context, operation);
    const { extensions, http } = report;
    // A result of `data` alone (no errors, so no status of its own): what stringifyWithHttpStatus
    // writes of the reported result, uncopied.
    const body =
      Object.keys(result).length === 1
        ? JSON.stringify({ data: result.data, extensions })
        : stringifyWithHttpStatus(reportedIn(result, report), requestId);
    if (res.closed || res.destroyed || res.writableEnded) return true;
    res.writeHead(200, {
      // As yoga writes them, name for name (test/gateway/fast-path.test.ts compares raw bytes).
      "Content-Type": `${mediaType}; charset=utf-8`,
      ...http?.headers,
      "content-length": Buffer.byteLength(body),
      "x-request-id": requestId,
    });
    res.end(body);
    return true;
  }

  return {
    plugin,
    facts: LANE_FACTS,
    serve,
    adopt(plan) {
      judges = plan.judges;
      enabled = plan.stepsAside.length === 0;
    },
  };
}
