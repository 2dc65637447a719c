import { useExecutionCancellation } from "graphql-yoga";
import type { GatewayParts } from "../assembly/gateway-parts.ts";
import type { PipelineEntry } from "../assembly/pipeline.ts";
import type { FastLane } from "../lane/fast-lane.ts";
import { useOperationSpans } from "../observability/tracing.ts";
import { useSessionTokenFirst } from "../session/session-mode.ts";
import { useErrorOrder } from "./error-order.ts";
import { useIncrementalDelivery } from "./use-incremental-delivery.ts";
import { createMemoryQueryStore, usePersistedDocuments } from "./use-persisted-documents.ts";
import { READINESS_CACHE_MS, useReadiness } from "./use-readiness.ts";

/**
 * Before an operation is judged: how it will run (compiled, through the prepared lane, traced),
 * the document a persisted request stands for, incremental delivery, the readiness endpoint and
 * the operation following its client's going away.
 */
export function preparationStage(parts: GatewayParts, lane: FastLane): PipelineEntry[] {
  const { options, documents, keyHash, fleet } = parts;
  return [
    {
      name: "compiled-execution",
      lane: { mirrors: "the lane runs the query compiled execution compiled" },
      plugin: lane.compiledExecution,
    },
    {
      name: "error-order",
      lane: { mirrors: "the lane answers only results without errors: yoga orders the rest" },
      plugin: useErrorOrder(documents),
      after: { "compiled-execution": "it orders the errors of whichever runtime answered" },
    },
    {
      name: "prepared-lane",
      lane: { mirrors: "it is the lane" },
      plugin: lane.preparedLane.plugin,
      after: { "compiled-execution": "the lane runs only what compiled execution compiled" },
    },
    {
      name: "operation-spans",
      lane: { mirrors: "the lane answers nothing while tracing is on (tracingIsOn)" },
      plugin: useOperationSpans(documents),
      after: {
        "compiled-execution":
          "a span wraps, in the operation's trace context, the execution that really runs",
      },
    },
    {
      // A refused session token answers 401 whatever its document (trusted or not).
      name: "session-token-first",
      lane: { stepsAside: "a session token is verified and exchanged on yoga's path" },
      plugin: options.session && useSessionTokenFirst(options.session.verify),
    },
    {
      name: "persisted-documents",
      lane: options.persistedDocuments?.trustedOnly
        ? { stepsAside: "only trusted documents run: each request is judged on yoga's path" }
        : { mirrors: "a persisted request carries `extensions`: the fast path sends it to yoga" },
      plugin: usePersistedDocuments({
        keyHash,
        // Registrations are kept only for a key the upstream has accepted (docs/limits.md).
        // In session mode the credential is a token the verifier accepted before anything ran
        // (session-token-first), never a key the upstream saw: a verified session is accepted.
        acceptsKey: options.session
          ? () => true
          : (authorization) => options.upstream.knowsKey?.(keyHash(authorization)) ?? false,
        ...options.persistedDocuments,
        maxCachedDocumentBytes: parts.settings.registeredBytes,
        store:
          options.persistedDocuments?.store ??
          fleet?.apqStore ??
          createMemoryQueryStore({
            ...parts.settings.apq,
            maxDocumentBytes: parts.settings.registeredBytes,
          }),
      }),
    },
    {
      name: "incremental-delivery",
      lane: { mirrors: "the lane takes no @defer or @stream (preparable)" },
      plugin: useIncrementalDelivery(documents),
    },
    {
      name: "readiness",
      lane: { mirrors: "/readyz is no JSON POST to /graphql" },
      plugin: useReadiness(
        "/readyz",
        async () => {
          const reachable = await options.upstream.isReachable();
          return { ready: reachable, upstream: reachable ? "reachable" : "unreachable" };
        },
        READINESS_CACHE_MS,
        // Losing Redis degrades the fleet to per-instance state: it never makes an instance unready.
        () => (fleet ? fleet.redisState() : { redis: "not configured" }),
      ),
    },
    {
      name: "execution-cancellation",
      lane: { mirrors: "the lane's operation follows its client's going away (followDisconnect)" },
      plugin: useExecutionCancellation(),
    },
  ];
}
