import { GATEWAY_DEFAULTS } from "./defaults.ts";

/** The bounds against hostile clients (docs/limits.md), by their names in GATEWAY_DEFAULTS. */
const BOUND_NAMES = [
  "maxUpstreamBytes",
  "upstreamConnectionsPerKey",
  "upstreamQueuePerKey",
  "maxSubscriptionsPerKey",
  "maxSubscriptionsPerConnection",
  "maxSubscriptionsTotal",
  "apqMaxBytes",
  "documentCacheMaxBytes",
  "maxCachedDocumentBytes",
  "sseReservationTtlMs",
  "sseReservationsPerKey",
  "sseReservationsTotal",
  "sseMaxQueuedBytes",
] as const;

type BoundName = (typeof BOUND_NAMES)[number];

/** Each bound's setting: MAX_UPSTREAM_BYTES, UPSTREAM_CONNECTIONS_PER_KEY, … (config.ts). */
export type GatewayBounds = { [Name in BoundName]?: number };

/** Every bound, its default where the caller gave none. */
export function resolveBounds(bounds: GatewayBounds = {}): Required<GatewayBounds> {
  const resolved = {} as Required<GatewayBounds>;
  for (const name of BOUND_NAMES) resolved[name] = bounds[name] ?? GATEWAY_DEFAULTS[name];
  return resolved;
}
