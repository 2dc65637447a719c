import type { GatewayParts } from "../assembly/gateway-parts.ts";
import type { OperationContexts } from "../assembly/operation-contexts.ts";
import type { PipelineEntry } from "../assembly/pipeline.ts";
import { SubscriptionCounts, useSubscriptionBounds } from "./subscription-bounds.ts";
import { useHttpStatusInErrors } from "./use-http-status-in-errors.ts";
import { useLiveQueries } from "./use-live-queries.ts";
import { useUpstreamReport } from "./use-upstream-report.ts";

/**
 * An operation running and answered: its upstream report, the subscriptions and live queries
 * that stay open, and the HTTP status its errors ask for.
 */
export function answerStage(parts: GatewayParts, contexts: OperationContexts): PipelineEntry[] {
  const { options, documents, keyHash } = parts;
  const freshContext = contexts.ofEvent;
  const subscriptionCounts = new SubscriptionCounts(parts.settings.bounds);
  return [
    {
      name: "upstream-report",
      lane: { mirrors: "the lane writes the same report (upstreamReport)" },
      plugin: useUpstreamReport(documents),
    },
    {
      name: "subscription-bounds",
      lane: { mirrors: "the lane serves queries only" },
      plugin: useSubscriptionBounds(freshContext, subscriptionCounts, { documents, keyHash }),
    },
    {
      name: "live-queries",
      lane: { mirrors: "the lane takes no operation with a directive (@live)" },
      plugin: useLiveQueries({
        hub: parts.liveHub,
        documents,
        keyHash,
        counts: subscriptionCounts,
        freshContext,
        maxReads: parts.settings.maxLiveQueryReads,
        ...(options.live?.timers ? { timers: options.live.timers } : {}),
      }),
      after: {
        "answer-redaction": "a live result and its patch are made of what the client may see",
      },
    },
    {
      name: "http-status-in-errors",
      lane: { mirrors: "the lane answers only results without errors, with 200" },
      plugin: useHttpStatusInErrors(),
    },
  ];
}
