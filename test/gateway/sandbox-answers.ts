import { expect } from "vitest";
import { dialectErrorCode } from "../../src/sandbox/dialects.ts";
import { ERROR_CODES, type ErrorCode } from "../../src/sandbox/error-codes.ts";
import { DIALECT } from "./harness.ts";

/**
 * What the sandbox answers where the seed is silent, in this run's dialect (harness DIALECT).
 * Tests that check what the gateway passes on from the upstream derive it from here, so they
 * prove the same thing under every dialect instead of one dialect's choice.
 */

/** The `error.code` the sandbox sends for its own failure `code` (answered with `status`). */
export function sandboxErrorCode(code: ErrorCode, status: number = ERROR_CODES[code]): string {
  return dialectErrorCode(DIALECT, code, status);
}

/** The status and code of a rejected upstream cursor (the seed shows neither). */
export const INVALID_CURSOR = {
  status: DIALECT.invalidCursorStatus,
  code: sandboxErrorCode("INVALID_CURSOR", DIALECT.invalidCursorStatus),
};

/** `error.details` of a 401 for an unknown key, as the gateway reports it (null when absent). */
export const INVALID_KEY_DETAILS = DIALECT.authDetails ? { reason: "invalid_key" } : null;

/** `error.details` of a 403 for a read-only key writing. */
export const READ_ONLY_DETAILS = DIALECT.authDetails
  ? { reason: "read_only", required: "write" }
  : null;

/** Status of a successful delete (operations 9 and 11). */
export const DELETE_STATUS = DIALECT.deleteAnswer === "no-content" ? 204 : 200;

/** Status of a successful agent creation. */
export const CREATE_AGENT_STATUS = DIALECT.createAgentStatus;

/** Operation 6's body around the assigned phone number. */
export function assignAnswer(phoneNumber: Record<string, unknown>): Record<string, unknown> {
  return DIALECT.assignAnswer === "phone-number" ? phoneNumber : { phoneNumber, assigned: true };
}

/** Operation 12's body after retrying `retriedRows` rows of campaign `campaignId`. */
export function retryAnswer(campaignId: string, retriedRows: number): Record<string, unknown> {
  return DIALECT.retryAnswer === "summary"
    ? { campaignId, retriedRows, status: "RUNNING" }
    : expect.objectContaining({ id: campaignId, failedRows: 0, status: "RUNNING" });
}

/** The organization's fields beyond the writable ones and its id. */
export function organizationExtras(createdAt: string, updatedAt: string): Record<string, string> {
  return DIALECT.organizationTimestamps ? { createdAt, updatedAt } : {};
}

/** A date-time as the sandbox writes it, from the ISO string `toISOString` gives. */
export function sandboxDate(iso: string): string {
  return DIALECT.dateFormat === "millis-z" ? iso : iso.replace(/\.\d{3}Z$/, "+00:00");
}

/**
 * The end of a call that started at `startedAt` (as the gateway reported it) and lasted
 * `durationMs`. A dialect without milliseconds truncates both ends, so the end is one of the two
 * whole seconds after the truncated start plus the duration.
 */
export function sandboxEndedAt(startedAt: string, durationMs: number): unknown {
  const exact = Date.parse(startedAt) + durationMs;
  if (DIALECT.dateFormat === "millis-z") return new Date(exact).toISOString();
  const low = Math.floor(exact / 1000) * 1000;
  const both = [low, low + 1000].map((ms) => new Date(ms).toISOString().replaceAll(".", "\\."));
  return expect.stringMatching(new RegExp(`^(${both.join("|")})$`));
}

/** `agentId`/`contactId` of a conversation item read straight from the sandbox, flat or nested. */
export function conversationRefs(item: Record<string, unknown>): {
  agentId: string | null;
  contactId: string | null;
} {
  if (DIALECT.conversationRefs === "flat") {
    return { agentId: item.agentId as string | null, contactId: item.contactId as string | null };
  }
  const id = (ref: unknown) => (ref === null ? null : (ref as { id: string }).id);
  return { agentId: id(item.agent), contactId: id(item.contact) };
}

/** The name the sandbox gives operation 7's free-text parameter. */
export const SEARCH_PARAM = DIALECT.searchParam;

/** A stats duration field as the sandbox names it: `<name>Seconds`, or `<name>Ms` in ms. */
export function statsDuration(name: string, seconds: number): Record<string, number> {
  return DIALECT.durationUnit === "seconds"
    ? { [`${name}Seconds`]: seconds }
    : { [`${name}Ms`]: seconds * 1000 };
}

/** The sandbox's default `X-RateLimit-Limit`. */
export const RATE_LIMIT = String(DIALECT.rateLimit);
