import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("test");

function assign(phoneNumberId: string, agentId: string) {
  return call(sandbox(), "/v1/phone-numbers/assign", {
    method: "POST",
    body: { phoneNumberId, agentId },
  });
}

describe("phone number assignment (operation 6)", () => {
  it("assigns an unassigned number and answers 200 with the updated phone number", async () => {
    const answer = await assign(SEED_IDS.acmePhoneNumberUnassigned, SEED_IDS.acmeAgentPaused);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: SEED_IDS.acmePhoneNumberUnassigned,
      number: "+16175550204",
      country: "US",
      agentId: SEED_IDS.acmeAgentPaused,
      assignedAt: answer.body.assignedAt,
    });
    expect(Date.now() - Date.parse(answer.body.assignedAt)).toBeLessThan(10_000);
  });

  it("is idempotent for the agent the number already belongs to", async () => {
    const first = await assign(SEED_IDS.acmePhoneNumberAssigned, SEED_IDS.acmeAgent);
    const second = await assign(SEED_IDS.acmePhoneNumberAssigned, SEED_IDS.acmeAgent);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(first.body.assignedAt).toBe("2026-01-05T20:00:00.000Z");
  });

  it("answers 409 CONFLICT for a number assigned to another agent", async () => {
    const answer = await assign(SEED_IDS.acmePhoneNumberAssigned, SEED_IDS.acmeAgentPaused);
    expect(expectError(answer, 409, "CONFLICT")).toEqual({
      phoneNumberId: SEED_IDS.acmePhoneNumberAssigned,
      agentId: SEED_IDS.acmeAgent,
    });
  });

  it("answers 404 for an unknown phone number or agent", async () => {
    expectError(await assign("phn_nope", SEED_IDS.acmeAgent), 404, "NOT_FOUND");
    expectError(await assign(SEED_IDS.acmePhoneNumberUnassigned, "agt_nope"), 404, "NOT_FOUND");
  });
});
