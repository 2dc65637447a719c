import { pad } from "./seed-builders.ts";
import { SEED_BASE_TIME } from "./seed-data.ts";
import type { ConversationRecord } from "./store.ts";
import { ConversationChannel, ConversationDirection, ConversationStatus } from "./vocabulary.ts";

const HOUR_MS = 3_600_000;

/**
 * IN_PROGRESS is reserved for live calls, which follow the clock instead of the base date.
 * SUCCESS comes first so that conversation 0001 is an ordinary, finished call.
 */
const ENDED_OR_PENDING: ConversationStatus[] = [
  "SUCCESS",
  ...ConversationStatus.options.filter(
    (status) => status !== "IN_PROGRESS" && status !== "SUCCESS",
  ),
];

const SUMMARIES = [
  "Patient asked to reschedule an appointment to next Tuesday.",
  "Caller confirmed the annual check-up and asked about parking.",
  "Questions about insurance coverage for a physiotherapy session.",
  "Billing question: duplicate charge on the last invoice.",
  "Prescription refill request forwarded to the pharmacy team.",
  "Caller wanted opening hours for the weekend clinic.",
  "Follow-up after lab results; caller will book a consultation.",
  "Wrong number, the caller was looking for another practice.",
];

/** Direction/channel pairs that live calls rotate through, so every pair is seen IN_PROGRESS. */
export const LIVE_CALL_KINDS: Array<[ConversationDirection, ConversationChannel]> = [
  ["INBOUND", "VOICE"],
  ["OUTBOUND", "VOICE"],
  ["INBOUND", "CHAT"],
  ["OUTBOUND", "SMS"],
  ["INBOUND", "SMS"],
  ["OUTBOUND", "CHAT"],
];

function durationFor(status: ConversationStatus, n: number): number {
  switch (status) {
    case "SUCCESS":
      return 60 + ((n * 53) % 540);
    case "FAILED":
      return n % 20;
    case "VOICEMAIL":
      return 20 + (n % 40);
    case "UNKNOWN":
      return 5 + (n % 100);
    default:
      return 0;
  }
}

/** A small seeded PRNG (mulberry32): the same seed always gives the same data. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` ended or pending conversations, one every ~5 hours from a day after the base date.
 * Every 36 in a row cover each status (but IN_PROGRESS) x direction x channel; agents and
 * contacts are drawn from a seeded PRNG so that none is tied to one status or direction.
 */
export function staticConversations(
  slug: string,
  count: number,
  agentIds: string[],
  contactIds: string[],
): ConversationRecord[] {
  const conversations: ConversationRecord[] = [];
  const combos = ENDED_OR_PENDING.length * ConversationDirection.options.length;
  const random = seededRandom(slug.length * 7919 + count);
  const pick = (ids: string[]) => ids[Math.floor(random() * ids.length)] ?? null;
  for (let n = 0; n < count; n++) {
    const combo = n % (combos * ConversationChannel.options.length);
    const status = ENDED_OR_PENDING[combo % ENDED_OR_PENDING.length] ?? "SUCCESS";
    const direction =
      ConversationDirection.options[Math.floor(combo / ENDED_OR_PENDING.length) % 2] ?? "INBOUND";
    const channel = ConversationChannel.options[Math.floor(combo / combos)] ?? "VOICE";
    const startedAtMs = SEED_BASE_TIME + 24 * HOUR_MS + n * 5 * HOUR_MS + ((n * 37) % 60) * 60_000;
    const durationSeconds = durationFor(status, n);
    conversations.push({
      id: `cnv_${slug}_${pad(n + 1, 4)}`,
      // The first conversation joins the first agent and contact, for a predictable example.
      agentId: n === 0 ? (agentIds[0] ?? null) : pick(agentIds),
      contactId: n === 0 ? (contactIds[0] ?? null) : pick(contactIds),
      status,
      direction,
      channel,
      startedAtMs,
      endedAtMs: status === "PENDING" ? null : startedAtMs + durationSeconds * 1000,
      durationSeconds,
      summary: status === "PENDING" ? null : (SUMMARIES[n % SUMMARIES.length] ?? null),
      createdAtMs: startedAtMs,
    });
  }
  return conversations;
}

/** A call that is IN_PROGRESS from `startedAtMs` and ends by itself at `startedAtMs + durationMs`. */
export function liveCall(
  id: string,
  kind: number,
  agentId: string | null,
  contactId: string | null,
  startedAtMs: number,
  durationMs: number,
): ConversationRecord {
  const [direction, channel] = LIVE_CALL_KINDS[kind % LIVE_CALL_KINDS.length] ?? [
    "INBOUND",
    "VOICE",
  ];
  return {
    id,
    agentId,
    contactId,
    status: "IN_PROGRESS",
    direction,
    channel,
    startedAtMs,
    endedAtMs: null,
    durationSeconds: 0,
    summary: null,
    createdAtMs: startedAtMs,
    endsAtMs: startedAtMs + durationMs,
  };
}

/** Calls already under way at start-up, started 10%, 40% and 70% of a call's length ago. */
export function seededLiveCalls(
  slug: string,
  count: number,
  agentIds: string[],
  contactIds: string[],
  nowMs: number,
  durationMs: number,
): ConversationRecord[] {
  const calls: ConversationRecord[] = [];
  for (let k = 0; k < count; k++) {
    const startedAtMs = nowMs - Math.floor(durationMs * (0.1 + 0.3 * k));
    calls.push(
      liveCall(
        `cnv_${slug}_live_${k + 1}`,
        k,
        agentIds[k % agentIds.length] ?? null,
        contactIds[k % contactIds.length] ?? null,
        startedAtMs,
        durationMs,
      ),
    );
  }
  return calls;
}
