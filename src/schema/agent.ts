import { resolveConnection } from "../connections/resolve-connection.ts";
import { AGENT_STATUSES, type AgentDto } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import { connectionArgs } from "./connection-args.ts";
import { assertId } from "./ids.ts";
import { enumOrNull, loadEach } from "./load-each.ts";
import { patchBody } from "./patch-body.ts";
import { listKey, readOnce } from "./read-once.ts";
import { VoiceConfig, VoiceConfigInput, voiceConfigsBody } from "./voice-config.ts";

export const AgentStatus = builder.enumType("AgentStatus", { values: AGENT_STATUSES });

export const Agent = builder.loadableNodeRef("Agent", {
  id: { resolve: (agent: AgentDto) => agent.id },
  load: (ids: string[], context) => loadEach(ids, (id) => context.api.getAgent(id)),
});

Agent.implement({
  description: "A voice AI agent.",
  fields: (t) => ({
    name: t.exposeString("name"),
    primaryLanguage: t.exposeString("primaryLanguage"),
    status: t.field({
      type: AgentStatus,
      nullable: true,
      description: "Loaded with one GET when the object came from an update, which omits it.",
      extensions: { upstreamCalls: 0 },
      resolve: async (agent, _args, context) => {
        const status = agent.status ?? (await Agent.getDataloader(context).load(agent.id)).status;
        return enumOrNull(AGENT_STATUSES, status);
      },
    }),
    systemPrompt: t.string({ nullable: true, resolve: (agent) => agent.systemPrompt ?? null }),
    greeting: t.string({ nullable: true, resolve: (agent) => agent.greeting ?? null }),
    model: t.string({ nullable: true, resolve: (agent) => agent.model ?? null }),
    metadata: t.field({ type: "JSONObject", resolve: (agent) => agent.metadata ?? {} }),
    createdAt: t.field({ type: "DateTime", resolve: (agent) => agent.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (agent) => agent.updatedAt }),
    supportedLanguages: t.stringList({ resolve: (agent) => agent.supportedLanguages ?? [] }),
    voiceConfigs: t.field({ type: [VoiceConfig], resolve: (agent) => agent.voiceConfigs ?? [] }),
    stats: t.loadable({
      type: "JSONObject",
      nullable: true,
      description: "The agent's statistics, as the upstream reports them.",
      extensions: { upstreamCalls: 1 },
      load: (ids: string[], context) => loadEach(ids, (id) => context.api.getAgentStats(id)),
      resolve: (agent) => agent.id,
    }),
  }),
});

export const AgentConnection = builder.connectionObject(
  {
    type: Agent,
    name: "AgentConnection",
  },
  { name: "AgentEdge" },
);

const agentFields = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0]) => ({
  primaryLanguage: t.string(),
  systemPrompt: t.string(),
  greeting: t.string(),
  model: t.string(),
  voiceConfigs: t.field({ type: [VoiceConfigInput] }),
  metadata: t.field({ type: "JSONObject" }),
});

const CreateAgentInput = builder.inputType("CreateAgentInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    ...agentFields(t),
    supportedLanguages: t.stringList(),
  }),
});

const UpdateAgentInput = builder.inputType("UpdateAgentInput", {
  description: "Only the fields given are sent; `voiceConfigs`, when given, is sent whole.",
  fields: (t) => ({ name: t.string(), ...agentFields(t) }),
});

const CreateAgentPayload = builder.objectRef<{ agent: AgentDto }>("CreateAgentPayload").implement({
  fields: (t) => ({ agent: t.expose("agent", { type: Agent }) }),
});

const UpdateAgentPayload = builder.objectRef<{ agent: AgentDto }>("UpdateAgentPayload").implement({
  fields: (t) => ({
    agent: t.expose("agent", {
      type: Agent,
      // The answer has no `status`: selecting it costs one GET, which the estimate must bound.
      extensions: { upstreamCalls: 1 },
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

builder.queryFields((t) => ({
  agent: t.field({
    type: Agent,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: (_root, { id }) => assertId("agent", id),
  }),
  agents: t.field({
    type: AgentConnection,
    args: connectionArgs(t.arg),
    extensions: { upstreamCalls: 3, connection: { defaultSize: 20 } },
    resolve: async (_root, args, context) => {
      const connection = await resolveConnection<AgentDto>(
        {
          name: "agents",
          assumedForm: "page",
          defaultSize: 20,
          filters: {},
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
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: async (_root, { input }, context) => {
      const agent = await context.api.createAgent({ name: input.name, ...agentBody(input) });
      // As for list items: only a complete agent may stand in for a GET.
      if (agent.status !== undefined) Agent.getDataloader(context).prime(agent.id, agent);
      return { agent };
    },
  }),
  updateAgent: t.field({
    type: UpdateAgentPayload,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateAgentInput, required: true }),
    },
    extensions: { upstreamCalls: 1 },
    resolve: async (_root, { id, input }, context) => {
      const agent = await context.api.updateAgent(assertId("agent", id), agentBody(input));
      // The update answer has no `status`: a later selection of it must GET the agent afresh.
      Agent.getDataloader(context).clear(agent.id);
      return { agent };
    },
  }),
}));
