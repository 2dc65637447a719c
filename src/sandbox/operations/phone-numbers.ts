import { invalidField, parseBodyShape } from "../body-validation.ts";
import { ApiError, notFound } from "../error-codes.ts";
import { SANDBOX_ID_PREFIX } from "../ids.ts";
import {
  type Operation,
  type OperationContext,
  type OperationResult,
  ok,
} from "../operation-context.ts";
import { requireJsonObject } from "../request-body.ts";
import { assignPhoneNumberShape } from "../request-shapes.ts";
import type { WirePhoneNumber } from "../wire-shapes.ts";

function checkPrefix(field: string, value: string, prefix: string): void {
  if (!value.startsWith(prefix) || value.length === prefix.length) {
    throw invalidField(field, `must be an id starting with ${prefix}`);
  }
}

/** The seed shows no success body: the phone number, or it wrapped with `assigned: true`. */
function assigned(ctx: OperationContext, phoneNumber: WirePhoneNumber): OperationResult {
  return ok(
    ctx.dialect.assignAnswer === "phone-number" ? phoneNumber : { phoneNumber, assigned: true },
  );
}

/**
 * Operation 6: 200 with the updated phone number (in the dialect's envelope). Assigning it again to the same agent is a
 * no-op; a number already assigned to another agent is 409 (unassigning is not in the API).
 */
export const assignPhoneNumber: Operation = (ctx) => {
  const input = parseBodyShape(assignPhoneNumberShape, requireJsonObject(ctx.body));
  checkPrefix("phoneNumberId", input.phoneNumberId, SANDBOX_ID_PREFIX.phoneNumber);
  checkPrefix("agentId", input.agentId, SANDBOX_ID_PREFIX.agent);
  const phoneNumber = ctx.org.phoneNumbers.get(input.phoneNumberId);
  if (phoneNumber === undefined) throw notFound("Phone number", input.phoneNumberId);
  if (!ctx.org.agents.has(input.agentId)) throw notFound("Agent", input.agentId);
  if (phoneNumber.agentId === input.agentId) return assigned(ctx, phoneNumber);
  if (phoneNumber.agentId !== null) {
    throw new ApiError("CONFLICT", "The phone number is already assigned to another agent.", {
      phoneNumberId: phoneNumber.id,
      agentId: phoneNumber.agentId,
    });
  }
  phoneNumber.agentId = input.agentId;
  phoneNumber.assignedAt = new Date(ctx.nowMs).toISOString();
  return assigned(ctx, phoneNumber);
};
