import type { CallCancel } from "./call-signal.ts";
import type { QueryValue, UpstreamClient, UpstreamRequest } from "./client.ts";
import {
  DEFAULT_READING,
  readConversation,
  readConversationList,
  type UpstreamReading,
} from "./conversation-reading.ts";
import type {
  AgentDto,
  AgentStatsDto,
  AssignPhoneNumberBody,
  CampaignDto,
  ContactStatsDto,
  ConversationDto,
  ConversationStatusDto,
  CreateAgentBody,
  CursorResponse,
  ListConversationsQuery,
  OffsetResponse,
  OrganizationDto,
  PageResponse,
  UpdateAgentBody,
  UpdateOrganizationBody,
} from "./dto.ts";
import { isAnsweredLocally, outcomeOf, UpstreamError } from "./errors.ts";
import type { JsonObject } from "./json.ts";
import type { KeyHasher } from "./key-memory.ts";
import {
  listOf,
  OPERATIONS,
  type OperationName,
  type RestOperation,
  routeOf,
} from "./operations.ts";
import type { RateLimit } from "./rate-limit.ts";
import type { SharedHow } from "./sharing.ts";

/** Who is calling: every operation forwards this key, signal and rate-limit observer. */
export interface CallContext {
  authorization: string;
  /** The gateway's naming of keys (createKeyHasher): the client's per-key memory is keyed by it. */
  keyHash: KeyHasher;
  signal?: CallCancel;
  /** Called once per call sent upstream, before its first attempt (retries: the client's mayRetry). */
  onRequest?: () => void;
  /** Sent upstream as `X-Request-Id`. */
  requestId?: string;
  /** Called once per call with its route template, outcome (a status, or "unavailable") and time. */
  onCallDone?: (call: { route: string; status: string; seconds: number }) => void;
  onRateLimit?: (rateLimit: RateLimit) => void;
  /** Called once per call answered by another operation's call or the read cache (no upstream call). */
  onCallShared?: (call: { route: string; how: SharedHow }) => void;
  /** Passed on with every call (UpstreamRequest): the operation's budget and read-cache choice. */
  mayRetry?: UpstreamRequest["mayRetry"];
  onAnswerRead?: UpstreamRequest["onAnswerRead"];
  cache?: UpstreamRequest["cache"];
}

/** Any of the seed's three list forms; the connection adapter tells them apart by shape. */
export type ListBody<T> = PageResponse<T> | CursorResponse<T> | OffsetResponse<T>;

export type PageParams = {
  page?: number;
  pageSize?: number;
  cursor?: string;
  limit?: number;
  offset?: number;
};

export type ListCampaignsParams = { status?: string } & PageParams;

/** One method per row of the operations table (operations.ts), named as the row. */
export interface RestApi extends Record<OperationName, (...args: never[]) => Promise<unknown>> {
  /** Operation 1: GET /v1/organization. */
  getOrganization(): Promise<OrganizationDto>;
  /** Operation 2: PATCH /v1/organization. */
  updateOrganization(body: UpdateOrganizationBody): Promise<OrganizationDto>;
  /** Operation 3: GET /v1/agents/{agentId}. */
  getAgent(agentId: string): Promise<AgentDto>;
  /** Operation 4: PATCH /v1/agents/{agentId}; the answer has no `status`. */
  updateAgent(agentId: string, body: UpdateAgentBody): Promise<AgentDto>;
  /** Operation 5: GET /v1/agents/{agentId}/stats. */
  getAgentStats(agentId: string): Promise<AgentStatsDto>;
  /** Operation 6: POST /v1/phone-numbers/assign; `{}` when the answer has no body. */
  assignPhoneNumber(body: AssignPhoneNumberBody): Promise<JsonObject>;
  /** Operation 7: GET /v1/conversations. */
  listConversations(query: ListConversationsQuery & PageParams): Promise<ListBody<ConversationDto>>;
  /** Operation 8: GET /v1/conversations/{conversationId}/status. */
  getConversationStatus(conversationId: string): Promise<ConversationStatusDto>;
  /** Operation 9: DELETE /v1/properties/{propertyDefinitionId}. */
  deletePropertyDefinition(propertyDefinitionId: string): Promise<JsonObject>;
  /** Operation 10: GET /v1/contacts/{contactId}/stats. */
  getContactStats(contactId: string): Promise<ContactStatsDto>;
  /** Operation 11: DELETE /v1/campaigns/{campaignId}. */
  deleteCampaign(campaignId: string): Promise<JsonObject>;
  /** Operation 12: POST /v1/campaigns/{campaignId}/retry, no body. */
  retryCampaign(campaignId: string): Promise<JsonObject>;
  /** Operation 13: GET /v1/tools/catalog; an array or `{ items }`. */
  getToolCatalog(): Promise<unknown>;
  /** Operation 14: GET /v1/documents/{documentId}. */
  getDocument(documentId: string): Promise<JsonObject>;
  /** Assumed: POST /v1/agents. */
  createAgent(body: CreateAgentBody): Promise<AgentDto>;
  /** Assumed: GET /v1/agents (page form). */
  listAgents(query: PageParams): Promise<ListBody<AgentDto>>;
  /** Assumed: GET /v1/campaigns (cursor form). */
  listCampaigns(query: ListCampaignsParams): Promise<ListBody<CampaignDto>>;
  /** Assumed: GET /v1/campaigns/{campaignId}. */
  getCampaign(campaignId: string): Promise<CampaignDto>;
}

// Pagination first, in this order, so each form reads page,pageSize | cursor,limit | limit,offset;
// then the list's filters, in the order of its row (operations.ts).
const PAGINATION_KEYS = ["page", "pageSize", "cursor", "limit", "offset"] as const;

function listQuery(name: OperationName, query: PageParams): Record<string, QueryValue> {
  const values = query as Record<string, QueryValue>;
  const ordered: Record<string, QueryValue> = {};
  for (const key of [...PAGINATION_KEYS, ...listOf(name).filters]) ordered[key] = values[key];
  return ordered;
}

/** Each row's template cut at its `{id}`s, once: a call joins the pieces around its IDs. */
const TEMPLATE_PIECES: ReadonlyMap<RestOperation, readonly string[]> = new Map(
  Object.values(OPERATIONS).map((row) => [row, row.template.split("{id}")]),
);

/** The row's template with each `{id}` replaced by the next ID, encoded as one path segment. */
export function pathOf(row: RestOperation, ids: readonly string[]): string {
  const pieces = TEMPLATE_PIECES.get(row) as readonly string[];
  let path = pieces[0] as string;
  for (let i = 1; i < pieces.length; i++) path += (ids[i - 1] as string) + pieces[i];
  return path;
}

/** Sends the free-text filter under the upstream's name for it, in the same place. */
function renameSearch(
  query: Record<string, QueryValue>,
  reading: UpstreamReading,
): Record<string, QueryValue> {
  if (reading.searchParam === "search") return query;
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [
      key === "search" ? reading.searchParam : key,
      value,
    ]),
  );
}

/** Calls an operation may start with a key the upstream has not accepted yet, before an answer. */
export const UNPROVEN_KEY_CALLS = 4;

/** What the REST methods use of a client. */
export type RestTransport = Pick<UpstreamClient, "reading" | "knowsKey" | "request">;

export function createRestApi(client: RestTransport, call: CallContext): RestApi {
  return new RestCalls(client, call);
}

/**
 * One operation's REST calls. A class: its methods live once on the prototype, where a factory
 * of closures built all twenty-two of them again for every operation.
 */
class RestCalls implements RestApi {
  readonly #client: RestTransport;
  readonly #call: CallContext;
  readonly #reading: UpstreamReading;
  // While the upstream has not accepted this key lately, an operation sends at most
  // UNPROVEN_KEY_CALLS calls before the first answer; the rest wait for it, so after a 401 none
  // of them is sent (a garbage key costs a few calls, not one per ID of `nodes`).
  #started = 0;
  #answered = false;
  #refusal: UpstreamError | undefined;
  #firstAnswer: PromiseWithResolvers<void> | undefined;
  // The key's hash, for the client's per-key memory: computed once per operation, not per call.
  #hash: string | undefined;

  constructor(client: RestTransport, call: CallContext) {
    this.#client = client;
    this.#call = call;
    this.#reading = client.reading ?? DEFAULT_READING;
  }

  #hashOfKey(): string {
    this.#hash ??= this.#call.keyHash(this.#call.authorization);
    return this.#hash;
  }

  /**
   * Calls operation `name` with these path IDs (in the template's order). One async function per
   * call, from the proven-key wait to the call's report: each layer was a promise of its own.
   */
  async #send<T>(
    name: OperationName,
    ids: readonly string[] = NO_IDS,
    extra: Pick<UpstreamRequest, "query" | "body"> = NO_EXTRA,
  ): Promise<T> {
    const call = this.#call;
    const client = this.#client;
    if (
      !this.#answered &&
      this.#started >= UNPROVEN_KEY_CALLS &&
      !(client.knowsKey?.(this.#hashOfKey()) ?? true)
    ) {
      this.#firstAnswer ??= Promise.withResolvers<void>();
      await this.#firstAnswer.promise;
    }
    this.#started += 1;
    // Joined to another operation's call, or answered by the read cache: not a call of ours.
    let shared: SharedHow | undefined;
    let route: string | undefined;
    let began = 0;
    try {
      if (this.#refusal) throw this.#refusal;
      const row: RestOperation = OPERATIONS[name];
      const encoded = ids.length === 0 ? ids : ids.map((id) => encodeURIComponent(id));
      call.onRequest?.();
      began = performance.now();
      const called = routeOf(row);
      route = called;
      const request: UpstreamRequest = {
        method: row.method,
        path: pathOf(row, encoded),
        operation: { row, ids: encoded },
        query: extra.query,
        body: extra.body,
        authorization: call.authorization,
        keyHash: this.#hashOfKey(),
        signal: call.signal,
        requestId: call.requestId,
        onRateLimit: call.onRateLimit,
        // Counted as it happens, so a join shows in /metrics while its call is still out.
        onShared: (how) => {
          shared = how;
          call.onCallShared?.({ route: called, how });
        },
        mayRetry: call.mayRetry,
        onAnswerRead: call.onAnswerRead,
        cache: call.cache,
      };
      const response = await client.request<T>(request);
      if (!shared) this.#done(called, began, String(response.status));
      return response.body;
    } catch (error) {
      // Neither a refusal before the call nor a local answer is a call of ours to report.
      if (route !== undefined && !isAnsweredLocally(error) && !shared) {
        this.#done(route, began, outcomeOf(error));
      }
      if (error instanceof UpstreamError && error.status === 401) this.#refusal = error;
      throw error;
    } finally {
      this.#answered = true;
      this.#firstAnswer?.resolve();
    }
  }

  #done(route: string, began: number, status: string): void {
    this.#call.onCallDone?.({ route, status, seconds: (performance.now() - began) / 1000 });
  }

  getOrganization(): Promise<OrganizationDto> {
    return this.#send("getOrganization");
  }
  updateOrganization(body: UpdateOrganizationBody): Promise<OrganizationDto> {
    return this.#send("updateOrganization", NO_IDS, { body });
  }
  getAgent(agentId: string): Promise<AgentDto> {
    return this.#send("getAgent", [agentId]);
  }
  updateAgent(agentId: string, body: UpdateAgentBody): Promise<AgentDto> {
    return this.#send("updateAgent", [agentId], { body });
  }
  getAgentStats(agentId: string): Promise<AgentStatsDto> {
    return this.#send("getAgentStats", [agentId]);
  }
  assignPhoneNumber(body: AssignPhoneNumberBody): Promise<JsonObject> {
    return this.#send("assignPhoneNumber", NO_IDS, { body });
  }
  async listConversations(
    query: ListConversationsQuery & PageParams,
  ): Promise<ListBody<ConversationDto>> {
    const reading = this.#reading;
    const list = await this.#send<ListBody<ConversationDto>>("listConversations", NO_IDS, {
      query: renameSearch(listQuery("listConversations", query), reading),
    });
    return readConversationList(list, reading);
  }
  async getConversationStatus(conversationId: string): Promise<ConversationStatusDto> {
    const status = await this.#send<ConversationStatusDto>("getConversationStatus", [
      conversationId,
    ]);
    return readConversation(status, this.#reading);
  }
  deletePropertyDefinition(propertyDefinitionId: string): Promise<JsonObject> {
    return this.#send("deletePropertyDefinition", [propertyDefinitionId]);
  }
  getContactStats(contactId: string): Promise<ContactStatsDto> {
    return this.#send("getContactStats", [contactId]);
  }
  deleteCampaign(campaignId: string): Promise<JsonObject> {
    return this.#send("deleteCampaign", [campaignId]);
  }
  retryCampaign(campaignId: string): Promise<JsonObject> {
    return this.#send("retryCampaign", [campaignId]);
  }
  getToolCatalog(): Promise<unknown> {
    return this.#send("getToolCatalog");
  }
  getDocument(documentId: string): Promise<JsonObject> {
    return this.#send("getDocument", [documentId]);
  }
  createAgent(body: CreateAgentBody): Promise<AgentDto> {
    return this.#send("createAgent", NO_IDS, { body });
  }
  listAgents(query: PageParams): Promise<ListBody<AgentDto>> {
    return this.#send("listAgents", NO_IDS, { query: listQuery("listAgents", query) });
  }
  listCampaigns(query: ListCampaignsParams): Promise<ListBody<CampaignDto>> {
    return this.#send("listCampaigns", NO_IDS, { query: listQuery("listCampaigns", query) });
  }
  getCampaign(campaignId: string): Promise<CampaignDto> {
    return this.#send("getCampaign", [campaignId]);
  }
}

const NO_IDS: readonly string[] = Object.freeze([]);
const NO_EXTRA: Pick<UpstreamRequest, "query" | "body"> = Object.freeze({});
