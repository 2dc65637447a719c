/**
 * The REST operations the gateway calls, one row each: the seed's number (or "assumed"), the
 * method and path template, and what sharing between operations may do with it (issue 20): whether
 * a successful answer may be kept by the read cache (single-resource reads only: never a list,
 * never the live status) and which cached reads a write makes stale. `git grep "operation: 7"`
 * finds every fact of an operation here.
 */
export interface RestOperation {
  operation: number | "assumed";
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** `{id}` stands for one path segment. */
  template: string;
  /** A successful answer may be kept for UPSTREAM_CACHE_TTL_S (per key). */
  cacheable?: true;
  /**
   * The reads this write changes, as paths built from the write's own path segments and body:
   * invalidated (fleet-wide) before the write is answered.
   */
  invalidates?: (call: { ids: readonly string[]; body: unknown }) => string[];
}

const agentOf = (body: unknown): string[] => {
  const agentId = (body as { agentId?: unknown } | undefined)?.agentId;
  return typeof agentId === "string" ? [`/v1/agents/${encodeURIComponent(agentId)}`] : [];
};

export const REST_OPERATIONS: readonly RestOperation[] = [
  { operation: 1, method: "GET", template: "/v1/organization", cacheable: true },
  {
    operation: 2,
    method: "PATCH",
    template: "/v1/organization",
    invalidates: () => ["/v1/organization"],
  },
  { operation: 3, method: "GET", template: "/v1/agents/{id}", cacheable: true },
  {
    operation: 4,
    method: "PATCH",
    template: "/v1/agents/{id}",
    invalidates: ({ ids }) => [`/v1/agents/${ids[0]}`],
  },
  { operation: 5, method: "GET", template: "/v1/agents/{id}/stats", cacheable: true },
  // The assignment shows on the agent (its phone numbers): the agent named in the body.
  {
    operation: 6,
    method: "POST",
    template: "/v1/phone-numbers/assign",
    invalidates: ({ body }) => agentOf(body),
  },
  { operation: 7, method: "GET", template: "/v1/conversations" },
  { operation: 8, method: "GET", template: "/v1/conversations/{id}/status" },
  { operation: 9, method: "DELETE", template: "/v1/properties/{id}", invalidates: () => [] },
  { operation: 10, method: "GET", template: "/v1/contacts/{id}/stats", cacheable: true },
  {
    operation: 11,
    method: "DELETE",
    template: "/v1/campaigns/{id}",
    invalidates: ({ ids }) => [`/v1/campaigns/${ids[0]}`],
  },
  {
    operation: 12,
    method: "POST",
    template: "/v1/campaigns/{id}/retry",
    invalidates: ({ ids }) => [`/v1/campaigns/${ids[0]}`],
  },
  { operation: 13, method: "GET", template: "/v1/tools/catalog", cacheable: true },
  { operation: 14, method: "GET", template: "/v1/documents/{id}", cacheable: true },
  { operation: "assumed", method: "POST", template: "/v1/agents", invalidates: () => [] },
  { operation: "assumed", method: "GET", template: "/v1/agents" },
  { operation: "assumed", method: "GET", template: "/v1/campaigns" },
  { operation: "assumed", method: "GET", template: "/v1/campaigns/{id}", cacheable: true },
];

/** The row of a call and the path segments its `{id}`s stand for; undefined for no operation. */
export function operationOf(
  method: string,
  path: string,
): { row: RestOperation; ids: string[] } | undefined {
  const segments = path.split("?")[0]?.split("/") ?? [];
  for (const row of REST_OPERATIONS) {
    if (row.method !== method) continue;
    const template = row.template.split("/");
    if (template.length !== segments.length) continue;
    const ids: string[] = [];
    const matches = template.every((part, i) => {
      if (part === "{id}") {
        ids.push(segments[i] as string);
        return (segments[i] as string) !== "";
      }
      return part === segments[i];
    });
    if (matches) return { row, ids };
  }
  return undefined;
}
