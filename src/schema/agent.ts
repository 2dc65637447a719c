import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { resolveConnection } from "../connections/resolve-connection.ts";
import type { AgentDto } from "../upstream/dto.ts";
import { AGENT_STATUSES } from "../upstream/enums.ts";
import { listOf } from "../upstream/operations.ts";
import { builder, upstreamIdOf } from "./builder.ts";
import { connectionArgs } from "./connection-args.ts";
import type { SchemaContext } from "./context.ts";
import { assertId, idRule, REFUSES_NULL } from "./ids.ts";
import { enumOrNull, loadEach, onePromisePerKey } from "./load-each.ts";
import { nodeByIdQuery } from "./node-by-id.ts";
import { patchBody } from "./patch-body.ts";
import { listKey, readOnce } from "./read-once.ts";
import { carriedFields } from "./shared-fields.ts";
import { callsOf, connectionOf, listSourceOf } from "./upstream-calls.ts";
import { VoiceConfig, VoiceConfigInput, voiceConfigsBody } from "./voice-config.ts";

export const AgentStatus = builder.enumType("AgentStatus", {
  description:
    "An agent's state; a value the upstream sends that the schema does not know resolves to null.",
  values: AGENT_STATUSES,
});

export const Agent = builder.loadableNodeRef("Agent", {
  id: { description: "The agent's ID (`agt_` prefix).", resolve: (agent: AgentDto) => agent.id },
  load: (ids: string[], context) => loadEach(ids, (id) => context.api.getAgent(id)),
});

Agent.implement({
  description: "A voice AI agent.",
  fields: (t) => ({
    // Nullable like every other node's `name`, so `nodes` selections over mixed types validate.
    name: t.exposeString("name", { nullable: true, description: "The agent's name." }),
    primaryLanguage: t.exposeString("primaryLanguage", {
      description: "The language the agent speaks first, such as `en-US`.",
    }),
    status: t.field({
      type: AgentStatus,
      nullable: true,
      description: "Loaded with one GET when the object came from an update, which omits it.",
      extensions: { upstreamCalls: 0 },
      // At once when the object carries it (no promise for execution to wait on), else loaded.
      resolve: (agent, _args, context) =>
        agent.status != null
          ? enumOrNull(AGENT_STATUSES, agent.status)
          : agentOf(context, upstreamIdOf("Agent", agent)).then((loaded) =>
              enumOrNull(AGENT_STATUSES, loaded.status),
            ),
    }),
    systemPrompt: carriedFields(t).string("systemPrompt", "The instructions that steer the agent"),
    greeting: carriedFields(t).string("greeting", "What the agent says to open a conversation"),
    model: carriedFields(t).string("model", "The model the agent runs on"),
    metadata: t.field({
      type: "JSONObject",
      description: "Free-form metadata; `{}` when the upstream's answer does not carry it.",
      resolve: (agent) => agent.metadata ?? {},
    }),
    createdAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the agent was created (ISO 8601).",
      resolve: (agent) => agent.createdAt,
    }),
    updatedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the agent was last changed (ISO 8601).",
      resolve: (agent) => agent.updatedAt,
    }),
    supportedLanguages: t.stringList({
      description:
        "The languages the agent can speak; empty when the upstream's answer does not carry them.",
      resolve: (agent) => agent.supportedLanguages ?? [],
    }),
    voiceConfigs: t.field({
      type: [VoiceConfig],
      description:
        "The voices the agent can speak with; empty when the upstream's answer does not carry them.",
      resolve: (agent) => agent.voiceConfigs ?? [],
    }),
    stats: t.field({
      type: "JSONObject",
      nullable: true,
      description: "The agent's statistics, as the upstream reports them.",
      extensions: callsOf("getAgentStats"),
      resolve: (agent, _args, context) => agentStats(upstreamIdOf("Agent", agent), context),
    }),
  }),
});

/**
 * An agent by ID for the items that name it (a conversation's or a campaign's agent): one promise
 * per agent and operation, through the Agent loader. `forgetAgent` drops both the loader's entry
 * and this one, so a write is read afresh after it.
 */
const agents = onePromisePerKey((context, id) => Agent.getDataloader(context).load(id));

export function agentOf(context: SchemaContext, id: string): Promise<AgentDto> {
  return agents.of(context, id);
}

/** After a write to the agent: the next read of it in this operation GETs it again. */
export function forgetAgent(context: SchemaContext, id: string): void {
  Agent.getDataloader(context).clear(id);
  agents.forget(context, id);
}

export const AgentConnection = builder.connectionObject(
  {
    type: Agent,
    name: "AgentConnection",
    description: "A page of the organization's agents.",
  },
  { name: "AgentEdge", description: "An agent and its cursor in the agent list." },
);

const agentFields = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0]) => ({
  primaryLanguage: t.string({
    description: "The language the agent speaks first, such as `en-US`.",
  }),
  systemPrompt: t.string({ description: "The instructions that steer the agent." }),
  greeting: t.string({ description: "What the agent says to open a conversation." }),
  model: t.string({ description: "The model the agent runs on." }),
  voiceConfigs: t.field({
    type: [VoiceConfigInput],
    description: "The agent's voices, sent whole as the complete list.",
  }),
  metadata: t.field({ type: "JSONObject", description: "Free-form metadata, sent whole." }),
});

const CreateAgentInput = builder.inputType("CreateAgentInput", {
  description: "A new agent: `name` and exactly the other fields given are sent.",
  extensions: REFUSES_NULL,
  fields: (t) => ({
    name: t.string({ required: true, description: "The agent's name." }),
    ...agentFields(t),
    supportedLanguages: t.stringList({ description: "The languages the agent can speak." }),
  }),
});

const UpdateAgentInput = builder.inputType("UpdateAgentInput", {
  description: "Only the fields given are sent; `voiceConfigs`, when given, is sent whole.",
  extensions: REFUSES_NULL,
  fields: (t) => ({ name: t.string({ description: "The agent's new name." }), ...agentFields(t) }),
});

const CreateAgentPayload = builder.objectRef<{ agent: AgentDto }>("CreateAgentPayload").implement({
  description: "The result of `createAgent`.",
  fields: (t) => ({
    agent: t.expose("agent", {
      type: Agent,
      description: "The agent as the upstream created it.",
      // An answer without `status` (the seed shows no create body) costs one GET when selected.
      extensions: callsOf("getAgent"),
    }),
  }),
});

const UpdateAgentPayload = builder.objectRef<{ agent: AgentDto }>("UpdateAgentPayload").implement({
  description: "The result of `updateAgent`.",
  fields: (t) => ({
    agent: t.expose("agent", {
      type: Agent,
      description:
        "The agent as the update answered it; selecting `status`, which that answer omits, costs one GET.",
      // The answer has no `status`: selecting it costs one GET, which the estimate must bound.
      extensions: callsOf("getAgent"),
    }),
  }),
});

/** The create/update body: exactly the fields given, voice configs included. */
function agentBody<T extends typeof UpdateAgentInput.$inferInput>(input: T) {
  const { voiceConfigs, ...fields } = patchBody(input, "input");
  return voiceConfigs
    ? { ...fields, voiceConfigs: voiceConfigsBody(voiceConfigs, "input.voiceConfigs") }
    : fields;
}

/**
 * An agent's stats, one GET per distinct agent in an operation. `agent(id)` asks for them as it
 * asks for the agent, so the two GETs leave in the same tick, when the loaders dispatch: after
 * the reads the operation's fields make at once (a list whose items need more calls among them).
 */
const agentStatsLoader = createContextCache(
  (context: SchemaContext) =>
    new DataLoader((ids: readonly string[]) =>
      loadEach(ids, (id) => context.api.getAgentStats(id)),
    ),
);

function agentStats(id: string, context: SchemaContext) {
  return agentStatsLoader(context).load(id);
}

nodeByIdQuery(
  "agent",
  Agent,
  { noun: "An agent", how: " (GET /v1/agents/{agentId})", calls: callsOf("getAgent") },
  { stats: agentStats },
);

builder.queryFields((t) => ({
  agents: t.field({
    type: AgentConnection,
    // Nullable, as root fields that call upstream are: a failure here leaves siblings intact.
    nullable: true,
    description: `The organization's agents (GET /v1/agents, paged by page and pageSize; ${listOf("listAgents").defaultSize} a page by default).`,
    args: connectionArgs(t.arg),
    extensions: connectionOf("listAgents"),
    resolve: async (_root, args, context) => {
      const connection = await resolveConnection<AgentDto>(
        {
          name: "agents",
          ...listSourceOf("listAgents"),
          filters: {},
          cursorKey: context.cursorKey,
          itemId: (agent) => agent.id,
          fetch: (params) =>
            readOnce(context, listKey("agents", params), () => context.api.listAgents(params)),
        },
        args,
      );
      // A list item stands in for a GET only when complete: one without `status` would answer null.
      const loader = Agent.getDataloader(context);
      for (const { node } of connection.edges) {
        if (node.status !== undefined) loader.prime(node.id, node);
      }
      return connection;
    },
  }),
}));

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: CreateAgentPayload,
    description:
      "Creates an agent, sending `name` and exactly the other fields given (POST /v1/agents).",
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    extensions: callsOf("createAgent"),
    resolve: async (_root, { input }, context) => {
      const agent = await context.api.createAgent({ name: input.name, ...agentBody(input) });
      // As for list items: only a complete agent may stand in for a GET.
      if (agent.status !== undefined) Agent.getDataloader(context).prime(agent.id, agent);
      return { agent };
    },
  }),
  updateAgent: t.field({
    type: UpdateAgentPayload,
    description:
      "Sends exactly the fields given (PATCH /v1/agents/{agentId}); an explicit null is refused.",
    args: {
      id: t.arg.id({ required: true, extensions: idRule("agent") }),
      input: t.arg({ type: UpdateAgentInput, required: true }),
    },
    extensions: callsOf("updateAgent"),
    resolve: async (_root, { id, input }, context) => {
      const agent = await context.api.updateAgent(assertId("agent", id), agentBody(input));
      // The update answer has no `status`: a later selection of it must GET the agent afresh.
      forgetAgent(context, agent.id);
      return { agent };
    },
  }),
}));
