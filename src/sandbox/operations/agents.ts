import { currentDuration } from "../conversation-view.ts";
import { dialectStats } from "../dialects.ts";
import { notFound } from "../error-codes.ts";
import { type Operation, type OperationContext, ok, param } from "../operation-context.ts";
import type { AgentRecord } from "../store.ts";
import type { WireAgent, WireAgentStats, WirePage } from "../wire-shapes.ts";

function findAgent(ctx: OperationContext): AgentRecord {
  const id = param(ctx, "agentId");
  const agent = ctx.org.agents.get(id);
  if (agent === undefined) throw notFound("Agent", id);
  return agent;
}

/** Oldest first, ties broken by id: the order of the page form. */
function byCreatedAtAsc(a: AgentRecord, b: AgentRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : 1;
}

/** Operation 3. */
export const getAgent: Operation = (ctx) => ok(findAgent(ctx));

/** Assumed `GET /v1/agents`: page form; a page past the end is empty, not an error. */
export const listAgents: Operation = (ctx) => {
  const page = ctx.query.int("page", { fallback: 1, min: 1, max: Number.MAX_SAFE_INTEGER });
  const pageSize = ctx.query.int("pageSize", { fallback: 20, min: 1, max: 100 });
  const agents = [...ctx.org.agents.values()].sort(byCreatedAtAsc);
  const start = (page - 1) * pageSize;
  const body: WirePage<WireAgent> = {
    items: agents.slice(start, start + pageSize),
    total: agents.length,
    page,
    pageSize,
  };
  return ok(body);
};

/** Operation 5, computed from the agent's conversations at this moment. */
export const getAgentStats: Operation = (ctx) => {
  const agent = findAgent(ctx);
  const stats: WireAgentStats = {
    agentId: agent.id,
    totalConversations: 0,
    activeConversations: 0,
    byStatus: {},
    byChannel: {},
    averageDurationSeconds: 0,
    lastConversationAt: null,
  };
  let endedCount = 0;
  let endedSeconds = 0;
  let lastStartedAtMs = -Infinity;
  for (const conversation of ctx.org.conversations.values()) {
    if (conversation.agentId !== agent.id) continue;
    stats.totalConversations += 1;
    if (conversation.status === "IN_PROGRESS") stats.activeConversations += 1;
    stats.byStatus[conversation.status] = (stats.byStatus[conversation.status] ?? 0) + 1;
    stats.byChannel[conversation.channel] = (stats.byChannel[conversation.channel] ?? 0) + 1;
    if (conversation.endedAtMs !== null) {
      endedCount += 1;
      endedSeconds += currentDuration(conversation, ctx.nowMs);
    }
    lastStartedAtMs = Math.max(lastStartedAtMs, conversation.startedAtMs);
  }
  // Only ended conversations have a final duration worth averaging.
  stats.averageDurationSeconds = endedCount === 0 ? 0 : Math.round(endedSeconds / endedCount);
  if (stats.totalConversations > 0) {
    stats.lastConversationAt = new Date(lastStartedAtMs).toISOString();
  }
  return ok(dialectStats(ctx.dialect, stats));
};
