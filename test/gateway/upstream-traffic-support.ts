// What the upstream-traffic tests share: one gateway with small limits. The figures are written
// out, not read off the schema: a field that declared too few calls must fail these tests.

// Small limits, so that the cost, depth and alias checks are easy to cross. `{ agents(first: n)
// { nodes { stats } } }` costs 3 + n (a page may take three list requests, then one stats GET per
// agent): two agents' stats fit in the budget exactly, three do not.
export const MAX_UPSTREAM_CALLS = 5;
export const MAX_DEPTH = 4;
export const MAX_ALIASES = 2;

/** The gateway options of those limits. */
export const SMALL_LIMITS = {
  maxUpstreamCalls: MAX_UPSTREAM_CALLS,
  maxDepth: MAX_DEPTH,
  maxAliases: MAX_ALIASES,
};
