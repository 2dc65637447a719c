import type { YogaServerInstance } from "graphql-yoga";
import type { FleetLogouts } from "../fleet/logouts.ts";
import type { KeyHasher } from "../upstream/key-memory.ts";
import { admissionStage } from "./admission/admission-stage.ts";
import { answerStage } from "./answer/answer-stage.ts";
import { arrivalStage, singleConnectionSse } from "./arrival/arrival-stage.ts";
import { gatewayParts } from "./assembly/gateway-parts.ts";
import { operationContexts } from "./assembly/operation-contexts.ts";
import { declaredPipeline, type StageFacts } from "./assembly/pipeline.ts";
import { createYogaApp } from "./assembly/yoga-app.ts";
import type { GatewayContext } from "./execution/context.ts";
import { createFastLane } from "./lane/fast-lane.ts";
import type { FastPath } from "./lane/fast-path.ts";
import type { ConversationStatusHub } from "./live/conversation-status-hub.ts";
import type { LiveHub } from "./live/live-hub.ts";
import type { GatewayMetrics } from "./observability/metrics.ts";
import { preparationStage } from "./preparation/preparation-stage.ts";
import type { GatewayOptions, GatewayServerContext } from "./settings/gateway-options.ts";
import type { DocumentFactsCache } from "./shared/document-facts.ts";
import type { SseStreams } from "./sse/use-sse-single-connection.ts";
import { connectionRefusalFor } from "./transport/connection-refusal.ts";

export type { GatewayOptions, GatewayServerContext } from "./settings/gateway-options.ts";

export type Gateway = YogaServerInstance<GatewayServerContext, GatewayContext> & {
  /** The names of the rules in the order they apply (pipeline.ts). */
  pipeline: readonly string[];
  /** What each stage produces and reads of an operation's facts, in order (pipeline.ts). */
  pipelineFacts: readonly StageFacts[];
  conversationStatusHub: ConversationStatusHub;
  /** The pollers of `@live` queries. */
  liveHub: LiveHub;
  /** The node:http fast path of the common case, through the same plugins (fast-path.ts). */
  fastPath: FastPath;
  /**
   * Why graphql-ws connection params are refused (no key, a key that fails the local checks, a
   * session token that does not verify), or undefined when the socket may be acknowledged.
   */
  connectionRefusal(connectionParams: unknown): Promise<string | undefined>;
  /** Session mode (AUTH_MODE=session): listen() then serves POST /graphql/logout. */
  sessionMode: boolean;
  /** CORS_ORIGINS, as yoga's CORS answers them: what listen() answers itself follows them too. */
  corsOrigins: readonly string[];
  /** graphql-sse's single-connection streams: listen() bounds them with the graphql-ws sockets. */
  sseStreams: SseStreams;
  /** The fleet's record of session logouts (made on first call); undefined without a fleet. */
  fleetLogouts(): FleetLogouts | undefined;
  /** Stops taking part in the fleet (its subscriptions to Redis); the connection is main's. */
  closeFleet(): void;
  metrics: GatewayMetrics;
  /** How this gateway names a key in every per-key state (createKeyHasher); its own, never the process's. */
  keyHash: KeyHasher;
  /** This gateway's facts of each document it has run (document-facts.ts). */
  documentFacts: DocumentFactsCache;
};

/**
 * The yoga app, not listening: main.ts listens on it, tests call `fetch` or listen on port 0.
 * Built in stages, each by a function of its own: the parts every stage shares, the fast lane,
 * then the pipeline's plugins stage by stage, in the order they apply (pipeline.ts checks it).
 */
export function createGateway(options: GatewayOptions): Gateway {
  const parts = gatewayParts(options);
  const contexts = operationContexts(parts);
  const lane = createFastLane(parts, contexts);
  const sse = singleConnectionSse(parts);
  const pipeline = declaredPipeline(
    [
      ...arrivalStage(parts, lane, sse),
      ...preparationStage(parts, lane),
      ...admissionStage(parts),
      ...(options.rules ?? []),
      ...answerStage(parts, contexts),
    ],
    { name: "prepared-lane (before the pipeline)", facts: lane.preparedLane.facts },
  );
  lane.adopt(pipeline.lane);
  const yoga = createYogaApp(parts, contexts, pipeline.plugins);
  parts.attachLogger(yoga.logger);
  return Object.assign(yoga, {
    pipeline: pipeline.names,
    pipelineFacts: pipeline.facts,
    conversationStatusHub: parts.conversationStatusHub,
    liveHub: parts.liveHub,
    fastPath: lane.fastPath,
    connectionRefusal: connectionRefusalFor(options.session),
    sessionMode: options.session !== undefined,
    corsOrigins: parts.settings.corsOrigins,
    sseStreams: sse.streams,
    fleetLogouts: () => parts.fleet?.logouts(),
    closeFleet: () => {
      parts.liveHub.close();
      parts.fleet?.close();
    },
    metrics: parts.metrics,
    keyHash: parts.keyHash,
    documentFacts: parts.documents,
  });
}
