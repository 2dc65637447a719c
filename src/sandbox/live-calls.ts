import { newId, SANDBOX_ID_PREFIX } from "./ids.ts";
import { liveCall } from "./seed-conversations.ts";
import type { OrgData } from "./store.ts";

export interface LiveCallSchedule {
  /** When the sandbox started: new calls start at start + k * interval. */
  startMs: number;
  callDurationMs: number;
  callIntervalMs: number;
}

/** After a long idle spell only the most recent calls are created, not days of backlog. */
const MAX_CATCH_UP = 500;

/**
 * Brings an organization's live calls up to `nowMs`, lazily from the clock (no timers): starts
 * the calls the schedule says have started, and ends the calls whose time is up. Called before
 * every operation, so what a client sees is always consistent with the clock.
 */
export function advanceLiveCalls(org: OrgData, nowMs: number, schedule: LiveCallSchedule): void {
  const due = Math.floor((nowMs - schedule.startMs) / schedule.callIntervalMs);
  const first = Math.max(org.liveCallsStarted + 1, due - MAX_CATCH_UP + 1);
  const { agentIds, contactIds } = org.callParticipants;
  for (let k = first; k <= due; k++) {
    const call = liveCall(
      newId(SANDBOX_ID_PREFIX.conversation),
      k,
      agentIds[k % agentIds.length] ?? null,
      contactIds[k % contactIds.length] ?? null,
      schedule.startMs + k * schedule.callIntervalMs,
      schedule.callDurationMs,
    );
    org.conversations.set(call.id, call);
  }
  org.liveCallsStarted = Math.max(org.liveCallsStarted, due);

  for (const conversation of org.conversations.values()) {
    const endsAtMs = conversation.endsAtMs;
    if (conversation.status !== "IN_PROGRESS" || endsAtMs === undefined || nowMs < endsAtMs) {
      continue;
    }
    conversation.status = "SUCCESS";
    conversation.endedAtMs = endsAtMs;
    conversation.durationSeconds = Math.floor((endsAtMs - conversation.startedAtMs) / 1000);
    conversation.summary = "Live call completed.";
  }
}
