import type { Plugin } from "graphql-yoga";
import { requestIdOf } from "../arrival/request-id.ts";
import { startOperationMeter } from "../arrival/use-metrics.ts";
import type { GatewayParts } from "../assembly/gateway-parts.ts";
import type { OperationContexts } from "../assembly/operation-contexts.ts";
import type { LanePlan } from "../assembly/pipeline.ts";
import { nameRequestScope } from "../observability/logger.ts";
import type { CompiledQueries } from "../preparation/use-compiled-execution.ts";
import { useCompiledExecution } from "../preparation/use-compiled-execution.ts";
import { createFastPath, type FastPath } from "./fast-path.ts";
import {
  FAST_PATH_MAX_KEPT_TEXT,
  FAST_PATH_TEXT_BYTES,
  FAST_PATH_TEXTS,
} from "./fast-path-eligibility.ts";
import { createPreparedLane, type PreparedLane } from "./prepared-lane.ts";

/** The common case's way around yoga's request machinery, and the compiled execution it runs. */
export interface FastLane {
  compiledExecution: Plugin & CompiledQueries;
  preparedLane: PreparedLane;
  fastPath: FastPath;
  /**
   * Takes the pipeline's declarations (pipeline.ts) before yoga is made: the lane runs the
   * declared judges, and the lane and fast path stay shut while any entry steps aside.
   */
  adopt(plan: LanePlan): void;
}

/**
 * Compiled execution, the prepared lane and the node:http fast path, made together: the lane
 * runs what compiled execution compiled, and the fast path hands the lane what it reads.
 */
export function createFastLane(parts: GatewayParts, contexts: OperationContexts): FastLane {
  const { metrics, documents } = parts;
  const compiledExecution = useCompiledExecution({
    after: parts.settings.compileAfter,
    compileMsPerSecond: parts.settings.compileMsPerSecond,
    documents,
    onRun: (how) => metrics.compiledRuns.inc({ how }),
  });
  let open = false;
  const preparedLane = createPreparedLane({
    schema: parts.settings.schema,
    documents,
    compiled: compiledExecution,
    deadlineMs: parts.settings.operationDeadlineMs,
    texts: {
      max: FAST_PATH_TEXTS,
      maxBytes: FAST_PATH_TEXT_BYTES,
      maxTextBytes: FAST_PATH_MAX_KEPT_TEXT,
    },
    requestIdOf: (request) => {
      const requestId = requestIdOf(request as unknown as Request);
      nameRequestScope(requestId);
      return requestId;
    },
    meter: () => {
      const meter = startOperationMeter(metrics, "query");
      return { done: () => meter.done(undefined) };
    },
    onAnswered: () => {
      metrics.compiledRuns.inc({ how: "compiled" });
      metrics.preparedAnswers.inc();
    },
    contextFor: contexts.ofLane,
  });
  const fastPath = createFastPath({
    maxRequestBytes: parts.settings.maxRequestBytes,
    maxTokens: parts.settings.maxTokens,
    enabled: () => open,
    lane: preparedLane,
  });
  return {
    compiledExecution,
    preparedLane,
    fastPath,
    adopt(plan) {
      preparedLane.adopt(plan);
      open = plan.stepsAside.length === 0;
    },
  };
}
