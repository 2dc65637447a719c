import { isObjectType } from "graphql";
import type { UpstreamCostExtensions } from "../../src/gateway/estimate-upstream-calls.ts";
import { schema } from "../../src/schema/index.ts";

// What the upstream-traffic tests share: one gateway with small limits, read off the schema.

/** The upstream calls a field declares (its schema owner's bound), read from the schema. */
export function declaredCalls(typeName: string, fieldName: string): number {
  const type = schema.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  const calls = (field?.extensions as UpstreamCostExtensions | undefined)?.upstreamCalls;
  if (typeof calls !== "number") throw new Error(`${typeName}.${fieldName} declares no cost`);
  return calls;
}

/** The estimate of `{ agents(first: n) { nodes { stats } } }`: the page, then n agents' stats. */
export function agentPageWithStats(n: number): number {
  return declaredCalls("Query", "agents") + n * declaredCalls("Agent", "stats");
}

// Small limits, so that the cost, depth and alias checks are easy to cross: two agents' stats
// fit in the upstream-call budget exactly, three do not.
export const MAX_UPSTREAM_CALLS = agentPageWithStats(2);
export const MAX_DEPTH = 4;
export const MAX_ALIASES = 2;

/** The gateway options of those limits. */
export const SMALL_LIMITS = {
  maxUpstreamCalls: MAX_UPSTREAM_CALLS,
  maxDepth: MAX_DEPTH,
  maxAliases: MAX_ALIASES,
};
