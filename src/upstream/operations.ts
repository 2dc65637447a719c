import type { ListConversationsQuery } from "./dto.ts";

/**
 * The REST operations the gateway calls, one row each, named as the REST client's method: every
 * fact the gateway holds about an operation is stated here once, and read from here by the REST
 * client (method, path, filters, retries), the metrics and spans (route templates), the schema
 * (page sizes, list forms, the upstream calls each field declares for the cost limit) and the
 * read cache. `git grep "operation: 7,"` finds the row; the method name
 * (`listConversations`) finds every face of it. The sandbox keeps its own table
 * (src/sandbox/routes.ts): it must not learn the gateway's reading of the seed.
 */
export interface RestOperation {
  /** The seed's number, or "assumed" for an operation the seed does not list (docs/upstream.md). */
  operation: number | "assumed";
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** `{id}` stands for one path segment. */
  template: string;
  /**
   * Idempotent: a failed attempt that may not have reached the upstream (a reset, a 502/503/504)
   * is tried again (UPSTREAM_RETRIES). Only reads: a write is never sent twice.
   */
  retry: boolean;
  /** A list: its form, page sizes and filters. */
  list?: ListFacts;
  /** A successful answer may be kept for UPSTREAM_CACHE_TTL_S (per key). */
  cacheable?: true;
  /**
   * The reads this write changes, as paths built from the write's own path segments and body:
   * invalidated (fleet-wide) before the write is answered.
   */
  invalidates?: (call: { ids: readonly string[]; body: unknown }) => string[];
  /**
   * The reads whose answers this write may change, by operation, with the IDs they name (none:
   * every ID): the live pollers that read them read again as soon as it is answered.
   */
  changes?: (call: { ids: readonly string[]; body: unknown }) => ReadOfWrite[];
}

/** A read a write may change: a GET operation, and the IDs it names (none: every ID). */
export interface ReadOfWrite {
  /** The GET's row name in OPERATIONS (a test holds every name to a row). */
  read: string;
  ids?: readonly string[];
}

export interface ListFacts {
  /**
   * The form the gateway expects before an answer shows one (answers are read by their shape:
   * connections/list-answer.ts): the seed's, or the one assumed where it is silent.
   */
  form: "page" | "cursor" | "offset";
  /** Items a page holds when the client gives neither `first` nor `last`. */
  defaultSize: number;
  /** The largest page the upstream grants, and the largest `first`/`last` a client may ask. */
  maxSize: number;
  /** The filters sent, in this order, after the paging parameters. */
  filters: readonly string[];
  /**
   * The most upstream calls one connection window takes: a window of page or offset form needs
   * at most two pages, and `last` without `before` a third to find the end; a cursor list at most
   * two (connections/position-plan.ts, cursor-connection.ts).
   */
  windowCalls: number;
}

// The seed's list contract (Pagination conventions): page form 20 a page, cursor form 25,
// the conversation list 50; at most 100 in every form.
const MAX_PAGE = 100;

/** The filters of operation 7, in the order the DTO declares them; the compiler insists on all. */
const CONVERSATION_FILTERS = Object.keys({
  agentId: true,
  contactId: true,
  status: true,
  direction: true,
  channel: true,
  search: true,
  startDate: true,
  endDate: true,
} satisfies Record<Exclude<keyof ListConversationsQuery, "limit" | "offset">, true>);

const agentIdOf = (body: unknown): string | undefined => {
  const agentId = (body as { agentId?: unknown } | undefined)?.agentId;
  return typeof agentId === "string" ? agentId : undefined;
};
const agentOf = (body: unknown): string[] => {
  const agentId = agentIdOf(body);
  return agentId === undefined ? [] : [`/v1/agents/${encodeURIComponent(agentId)}`];
};

const read = { method: "GET", retry: true } as const;
const write = { retry: false } as const;

export const OPERATIONS = {
  getOrganization: { operation: 1, ...read, template: "/v1/organization", cacheable: true },
  updateOrganization: {
    operation: 2,
    ...write,
    method: "PATCH",
    template: "/v1/organization",
    invalidates: () => ["/v1/organization"],
    changes: () => [{ read: "getOrganization" }],
  },
  getAgent: { operation: 3, ...read, template: "/v1/agents/{id}", cacheable: true },
  updateAgent: {
    operation: 4,
    ...write,
    method: "PATCH",
    template: "/v1/agents/{id}",
    invalidates: ({ ids }) => [`/v1/agents/${ids[0]}`],
    changes: ({ ids }) => [{ read: "getAgent", ids }, { read: "listAgents" }],
  },
  getAgentStats: { operation: 5, ...read, template: "/v1/agents/{id}/stats", cacheable: true },
  // The assignment shows on the agent (its phone numbers): the agent named in the body.
  assignPhoneNumber: {
    operation: 6,
    ...write,
    method: "POST",
    template: "/v1/phone-numbers/assign",
    invalidates: ({ body }) => agentOf(body),
    changes: ({ body }) => {
      const agentId = agentIdOf(body);
      const agent = agentId === undefined ? {} : { ids: [encodeURIComponent(agentId)] };
      return [{ read: "getAgent", ...agent }, { read: "listAgents" }];
    },
  },
  listConversations: {
    operation: 7,
    ...read,
    template: "/v1/conversations",
    list: {
      form: "offset",
      defaultSize: 50,
      maxSize: MAX_PAGE,
      filters: CONVERSATION_FILTERS,
      windowCalls: 3,
    },
  },
  // Never cached: it is polled for the live status.
  getConversationStatus: { operation: 8, ...read, template: "/v1/conversations/{id}/status" },
  deletePropertyDefinition: {
    operation: 9,
    ...write,
    method: "DELETE",
    template: "/v1/properties/{id}",
    invalidates: () => [],
    // No read of the gateway's shows a property definition.
    changes: () => [],
  },
  getContactStats: { operation: 10, ...read, template: "/v1/contacts/{id}/stats", cacheable: true },
  deleteCampaign: {
    operation: 11,
    ...write,
    method: "DELETE",
    template: "/v1/campaigns/{id}",
    invalidates: ({ ids }) => [`/v1/campaigns/${ids[0]}`],
    changes: ({ ids }) => [{ read: "getCampaign", ids }, { read: "listCampaigns" }],
  },
  retryCampaign: {
    operation: 12,
    ...write,
    method: "POST",
    template: "/v1/campaigns/{id}/retry",
    invalidates: ({ ids }) => [`/v1/campaigns/${ids[0]}`],
    changes: ({ ids }) => [{ read: "getCampaign", ids }, { read: "listCampaigns" }],
  },
  getToolCatalog: { operation: 13, ...read, template: "/v1/tools/catalog", cacheable: true },
  getDocument: { operation: 14, ...read, template: "/v1/documents/{id}", cacheable: true },
  createAgent: {
    operation: "assumed",
    ...write,
    method: "POST",
    template: "/v1/agents",
    invalidates: () => [],
    changes: () => [{ read: "listAgents" }],
  },
  listAgents: {
    operation: "assumed",
    ...read,
    template: "/v1/agents",
    list: { form: "page", defaultSize: 20, maxSize: MAX_PAGE, filters: [], windowCalls: 3 },
  },
  listCampaigns: {
    operation: "assumed",
    ...read,
    template: "/v1/campaigns",
    list: {
      form: "cursor",
      defaultSize: 25,
      maxSize: MAX_PAGE,
      filters: ["status"],
      windowCalls: 2,
    },
  },
  getCampaign: { operation: "assumed", ...read, template: "/v1/campaigns/{id}", cacheable: true },
} as const satisfies Record<string, RestOperation>;

export type OperationName = keyof typeof OPERATIONS;

/** The rows, in the table's order. */
export const REST_OPERATIONS: readonly RestOperation[] = Object.values(OPERATIONS);

/** A list operation's facts. */
export function listOf(name: OperationName): ListFacts {
  const list = (OPERATIONS[name] as RestOperation).list;
  if (!list) throw new Error(`${name} is not a list operation`);
  return list;
}

/** A call of one operation: its row and the (encoded) path segments its `{id}`s stand for. */
export interface OperationCall {
  row: RestOperation;
  ids: readonly string[];
}

/**
 * The operation a call belongs to: the row its caller named (the REST client names its own,
 * rest-api.ts), else the one its method and path match; undefined for no operation.
 */
export function operationOf(call: {
  method: string;
  path: string;
  operation?: OperationCall;
}): OperationCall | undefined {
  if (call.operation) return call.operation;
  const { method, path } = call;
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

/**
 * Each row's route, made once: a string built per call is flattened and hashed again by every
 * map the metrics look it up in, which cost more than the rest of a call's metrics.
 */
const ROUTES = new WeakMap<RestOperation, string>();

/** What metrics and spans name a call of this row by: its method and route template. */
export function routeOf(row: RestOperation): string {
  let route = ROUTES.get(row);
  if (route === undefined) {
    route = `${row.method} ${row.template}`;
    ROUTES.set(row, route);
  }
  return route;
}

/**
 * The reads a write may have changed, as routes with the IDs they name; a write the table does
 * not know may have changed anything of its key (every route, every ID).
 */
export function readsChangedBy(call: {
  method: string;
  path: string;
  operation?: OperationCall;
  body?: unknown;
}): { route: string; ids?: readonly string[] }[] {
  const found = operationOf(call);
  const changes = found?.row.changes;
  if (!found || !changes) {
    return REST_OPERATIONS.filter((row) => row.method === "GET").map((row) => ({
      route: routeOf(row),
    }));
  }
  return changes({ ids: found.ids, body: call.body }).map(({ read, ids }) => ({
    route: routeOf((OPERATIONS as Record<string, RestOperation>)[read] as RestOperation),
    ...(ids === undefined ? {} : { ids }),
  }));
}
