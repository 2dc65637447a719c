import type { GraphQLResolveInfo } from "graphql";
import { resolveConnection } from "../connections/resolve-connection.ts";
import { upstreamOriginal } from "../upstream/conversation-reading.ts";
import type { ConversationDto, ListConversationsQuery } from "../upstream/dto.ts";
import {
  CONVERSATION_CHANNELS,
  CONVERSATION_DIRECTIONS,
  CONVERSATION_STATUSES,
} from "../upstream/enums.ts";
import type { JsonObject } from "../upstream/json.ts";
import { listOf } from "../upstream/operations.ts";
import { Agent, agentOf } from "./agent.ts";
import { builder, upstreamIdOf } from "./builder.ts";
import { connectionArgs } from "./connection-args.ts";
import { Contact, contactStats } from "./contact.ts";
import type { SchemaContext } from "./context.ts";
import { CONVERSATION_BY_ID_CALLS, loadConversationsById } from "./conversation-by-id.ts";
import {
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
} from "./conversation-enums.ts";
import { ConversationFilter, pinned, toQuery } from "./conversation-filter.ts";
import { type ItemLoads, itemLoadsOf } from "./item-loads.ts";
import { enumOrNull } from "./load-each.ts";
import { nodeByIdQuery } from "./node-by-id.ts";
import { listKey, readOnce } from "./read-once.ts";
import { callTimingFields, rawField, rawResource } from "./shared-fields.ts";
import { callsOf, connectionOf, listSourceOf } from "./upstream-calls.ts";

export const Conversation = builder.loadableNodeRef("Conversation", {
  id: {
    description: "The conversation's ID (`cnv_` prefix).",
    resolve: (conversation: ConversationDto) => conversation.id,
  },
  load: loadConversationsById,
});

Conversation.implement({
  description:
    "A voice conversation or call: the same item whether it comes from a list or by ID " +
    "(`conversation`, `node`), so every field agrees for one ID.",
  fields: (t) => ({
    status: t.field({
      type: ConversationStatus,
      nullable: true,
      description: "The conversation's status; null when the upstream does not send a known one.",
      resolve: (c) => enumOrNull(CONVERSATION_STATUSES, c.status),
    }),
    direction: t.field({
      type: ConversationDirection,
      nullable: true,
      description: "Inbound or outbound; null when the upstream does not send a known value.",
      resolve: (c) => enumOrNull(CONVERSATION_DIRECTIONS, c.direction),
    }),
    channel: t.field({
      type: ConversationChannel,
      nullable: true,
      description: "Voice, chat or SMS; null when the upstream does not send a known value.",
      resolve: (c) => enumOrNull(CONVERSATION_CHANNELS, c.channel),
    }),
    agent: t.field({
      type: Agent,
      nullable: true,
      description:
        "The agent in the conversation, loaded with one GET per distinct agent; null when the upstream names none.",
      extensions: { ...callsOf("getAgent"), sharedByItems: true },
      // A string ID through the one promise per agent; anything else as the loader reads it.
      resolve: (c, _args, context) =>
        typeof c.agentId === "string" ? agentOf(context, c.agentId) : (c.agentId ?? null),
    }),
    contact: t.field({
      type: Contact,
      nullable: true,
      description:
        "The contact in the conversation (its stats load only when selected); null when the upstream names none.",
      // A reference: the contact's stats are loaded only when selected, once per distinct contact
      // (declared on `stats`); the reference itself loads nothing.
      extensions: { upstreamCalls: 0, sharedByItems: true },
      resolve: (c) => (c.contactId ? { id: c.contactId } : null),
    }),
    ...callTimingFields(t),
    summary: t.exposeString("summary", {
      nullable: true,
      description: "A summary of the conversation; null when the upstream has none or omits it.",
    }),
    raw: rawField(t, rawResource("conversation object"), (c) => upstreamOriginal(c) as JsonObject),
  }),
});

export const ConversationConnection = builder.connectionObject(
  {
    type: Conversation,
    name: "ConversationConnection",
    description: "A page of conversations.",
  },
  { name: "ConversationEdge", description: "A conversation and its cursor in the list." },
);

async function listConversations(
  context: SchemaContext,
  query: ListConversationsQuery,
  args: Parameters<typeof resolveConnection>[1],
  info: GraphQLResolveInfo,
) {
  const connection = await resolveConnection<ConversationDto>(
    {
      name: "conversations",
      ...listSourceOf("listConversations"),
      filters: { ...query },
      cursorKey: context.cursorKey,
      itemId: (conversation) => conversation.id,
      fetch: (params) => {
        const request = { ...params, ...query };
        return readOnce(context, listKey("conversations", request), () =>
          context.api.listConversations(request),
        );
      },
    },
    args,
  );
  if (startItemLoads(context, connection.edges, itemLoadsOf(info))) await afterWritesQueued();
  return connection;
}

/**
 * Two turns of the event loop: the loads just started are dispatched at the end of this one, and
 * the client writes a request on a reused connection in the check phase after it is made (undici
 * checks the idle socket first). Resolving the page's items before then would hold those writes
 * back by the whole walk of the items, whose answers are not needed until the calls come back.
 */
async function afterWritesQueued(): Promise<void> {
  for (let turn = 0; turn < 2; turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * Starts the loads the page's items will make (agents, contact stats) as soon as the items are
 * known, in the loaders the items' fields read from: the items then find them there. Keys are
 * the ones the fields would load (a string agent ID, a non-empty string contact ID). Whether any
 * load was asked for.
 */
function startItemLoads(
  context: SchemaContext,
  edges: ReadonlyArray<{ node: ConversationDto }>,
  loads: ItemLoads,
): boolean {
  if (!loads.agent && !loads.contactStats) return false;
  // A page holding an item that is not an object fails as a whole, and graphql-js stops at that
  // item: its items' fields make their own loads then, none started ahead of them.
  if (edges.some(({ node }) => typeof node !== "object" || node === null)) return false;
  const agents = new Set<string>();
  const contacts = new Set<string>();
  for (const { node } of edges) {
    if (loads.agent && typeof node.agentId === "string") agents.add(node.agentId);
    if (loads.contactStats && typeof node.contactId === "string" && node.contactId !== "") {
      contacts.add(node.contactId);
    }
  }
  for (const agent of agents) void agentOf(context, agent);
  for (const contact of contacts) void contactStats(context, contact);
  return agents.size + contacts.size > 0;
}

// Two requests cover any window; `last` without `before` may need a third (docs/connections.md).
const connectionField = connectionOf("listConversations");

nodeByIdQuery("conversation", Conversation, {
  noun: "A conversation",
  how: ", the same item the lists hold: its status view (GET /v1/conversations/{conversationId}/status) gives its start time, and the list filtered to that second gives the item",
  calls: CONVERSATION_BY_ID_CALLS,
});

builder.queryFields((t) => ({
  conversations: t.field({
    type: ConversationConnection,
    // Nullable, as root fields that call upstream are: a failure here leaves siblings intact.
    nullable: true,
    description: `The organization's conversations, filtered (GET /v1/conversations, paged by limit and offset; ${listOf("listConversations").defaultSize} a page by default).`,
    args: { ...connectionArgs(t.arg), filter: t.arg({ type: ConversationFilter }) },
    extensions: connectionField,
    resolve: (_root, { filter, ...args }, context, info) =>
      listConversations(context, toQuery(filter), args, info),
  }),
}));

// An agent's and a contact's conversations: the list, pinned to the parent's ID.
for (const [parent, field, noun, typename] of [
  [Agent, "agentId", "agent", "Agent"],
  [Contact, "contactId", "contact", "Contact"],
] as const) {
  builder.objectField(parent as typeof Agent, "conversations", (t) =>
    t.field({
      type: ConversationConnection,
      description: `The ${noun}'s conversations: the conversation list filtered by this ${noun}.`,
      args: { ...connectionArgs(t.arg), filter: t.arg({ type: ConversationFilter }) },
      extensions: connectionField,
      resolve: (owner, { filter, ...args }, context, info) =>
        listConversations(
          context,
          pinned(toQuery(filter), field, upstreamIdOf(typename, owner)),
          args,
          info,
        ),
    }),
  );
}
