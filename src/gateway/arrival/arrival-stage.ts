import type { Plugin } from "graphql-yoga";
import { keyProblem } from "../admission/use-key-bound.ts";
import type { GatewayParts } from "../assembly/gateway-parts.ts";
import type { PipelineEntry } from "../assembly/pipeline.ts";
import { authorizationFrom, useBatchUsage } from "../execution/context.ts";
import type { FastLane } from "../lane/fast-lane.ts";
import { useGraphiQLAssets } from "../pages/graphiql-page.ts";
import { type SseStreams, useSseSingleConnection } from "../sse/use-sse-single-connection.ts";
import { useCatalogueRefusals } from "./refusals.ts";
import { useRequestId } from "./request-id.ts";
import { useBatchRefusal } from "./use-batch-refusal.ts";
import { useCsrfPrevention } from "./use-csrf-prevention.ts";
import { useLandingPage } from "./use-landing-page.ts";
import { useMetrics } from "./use-metrics.ts";
import { useNoBodyEcho } from "./use-no-body-echo.ts";
import { useRequestSizeLimit } from "./use-request-size-limit.ts";

/** graphql-sse's single-connection streams: their plugin, and the streams listen() bounds. */
export type SingleConnectionSse = { plugin: Plugin; streams: SseStreams };

/**
 * A request arriving (arrival/): the fast path, the endpoints that answer by themselves, the
 * request's size and ID, and graphql-sse's own endpoint.
 */
export function arrivalStage(
  parts: GatewayParts,
  lane: FastLane,
  sse: SingleConnectionSse,
): PipelineEntry[] {
  const { options } = parts;
  const answeredFirst = "a page or file another plugin answers is no operation: no request ID";
  const namesIt = "a refused request's error names its request ID, as every error does";
  return [
    {
      name: "fast-path",
      lane: { mirrors: "it is the lane's way in: it hands the lane what it read" },
      plugin: lane.fastPath.plugin,
    },
    {
      name: "batch-refusal",
      lane: { mirrors: "the fast path takes one operation per body: a batch goes to yoga" },
      plugin: useBatchRefusal(parts.settings.maxBatchSize),
    },
    {
      name: "landing-page",
      lane: { mirrors: "the lane serves JSON POSTs only: a page is a GET" },
      plugin: useLandingPage("/graphql", !!options.graphiql, !!options.session),
    },
    {
      name: "metrics",
      lane: { mirrors: "the lane starts and ends the operation's meter itself (meter())" },
      plugin: useMetrics(parts.metrics, parts.documents, options.metricsAccess),
    },
    {
      name: "graphiql-assets",
      lane: { mirrors: "the lane serves JSON POSTs only: an asset is a GET" },
      plugin: options.graphiql ? useGraphiQLAssets() : undefined,
    },
    {
      name: "request-id",
      lane: { mirrors: "the lane takes the request's ID as this plugin does (requestIdOf)" },
      plugin: useRequestId(),
      after: {
        "batch-refusal": answeredFirst,
        "landing-page": answeredFirst,
        metrics: answeredFirst,
        "graphiql-assets": answeredFirst,
      },
    },
    {
      name: "csrf-prevention",
      lane: { mirrors: "the fast path takes only `application/json` POSTs without Origin" },
      plugin: useCsrfPrevention(),
      after: { "request-id": namesIt },
    },
    {
      name: "no-body-echo",
      lane: { mirrors: "the lane answers only a body that parsed, without errors" },
      plugin: useNoBodyEcho(),
    },
    {
      name: "request-size-limit",
      lane: { mirrors: "the fast path reads only a declared Content-Length within the limit" },
      plugin: useRequestSizeLimit({ maxBytes: parts.settings.maxRequestBytes }),
      after: { "request-id": namesIt },
    },
    {
      name: "batch-usage",
      lane: { mirrors: "one operation per body: no batch to count" },
      plugin: useBatchUsage(),
    },
    {
      name: "catalogue-refusals",
      lane: { mirrors: "the lane answers only 200s: a refusal is yoga's, written here" },
      plugin: useCatalogueRefusals(),
    },
    {
      // graphql-sse's own endpoint (/graphql/stream).
      name: "sse-single-connection",
      lane: { mirrors: "the fast path takes no event-stream request and no other path" },
      plugin: sse.plugin,
      after: {
        "request-size-limit": "a stream's operations are bounded in bytes like any request's",
        "request-id": "every answer on a stream names its request ID",
      },
    },
  ];
}

/**
 * The single-connection streams, each held by who reserved it as the local checks see them: a
 * key's hash, or a verified session's organization and subject (its key is the organization's).
 */
export function singleConnectionSse(parts: GatewayParts): SingleConnectionSse {
  const { options, keyHash } = parts;
  const session = options.session;
  const holderOf = async (request: Request): Promise<string | undefined> => {
    const header = authorizationFrom(request.headers.get("authorization"));
    if (header === undefined || keyProblem(header) !== undefined) return undefined;
    if (!session) return `key\n${keyHash(header)}`;
    return session.verify(header).then(
      (verified) => `session\n${verified.organization}\n${verified.subject}`,
      () => undefined,
    );
  };
  return useSseSingleConnection({
    holderOf,
    // A verified session's key is the gateway's own; a passthrough key counts once accepted.
    vouchedFor: (request) => {
      const header = authorizationFrom(request.headers.get("authorization"));
      if (session) return true;
      return header !== undefined && (options.upstream.knowsKey?.(keyHash(header)) ?? false);
    },
    ...(options.sseTokenPrefix === undefined ? {} : { tokenPrefix: options.sseTokenPrefix }),
    limits: {
      reservationTtlMs: parts.settings.bounds.sseReservationTtlMs,
      reservationsPerKey: parts.settings.bounds.sseReservationsPerKey,
      reservationsTotal: parts.settings.bounds.sseReservationsTotal,
      maxQueuedBytes: parts.settings.bounds.sseMaxQueuedBytes,
    },
  });
}
