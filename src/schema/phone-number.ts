import type { JsonObject } from "../upstream/json.ts";
import { Agent, forgetAgent } from "./agent.ts";
import { builder } from "./builder.ts";
import { assertId, assertIdLength, idRule } from "./ids.ts";
import { RAW_ANSWER, rawField } from "./shared-fields.ts";
import { callsOf } from "./upstream-calls.ts";

const AssignPhoneNumberInput = builder.inputType("AssignPhoneNumberInput", {
  description: "Which phone number to assign to which agent; both are sent as given.",
  fields: (t) => ({
    phoneNumberId: t.id({ required: true, description: "The ID of the phone number to assign." }),
    agentId: t.id({
      required: true,
      description: "The ID of the agent that takes the number (`agt_` prefix).",
      extensions: idRule("agent"),
    }),
  }),
});

const AssignPhoneNumberPayload = builder
  .objectRef<{ phoneNumberId: string; agentId: string; raw: JsonObject }>(
    "AssignPhoneNumberPayload",
  )
  .implement({
    description: "The result of `assignPhoneNumber`.",
    fields: (t) => ({
      phoneNumberId: t.exposeID("phoneNumberId", {
        description: "The ID of the assigned phone number, as given.",
      }),
      agent: t.field({
        type: Agent,
        nullable: true,
        description: "The agent the number now rings, loaded with one GET when selected.",
        extensions: callsOf("getAgent"),
        resolve: (payload) => payload.agentId,
      }),
      raw: rawField(t, RAW_ANSWER, (payload) => payload.raw),
    }),
  });

builder.mutationField("assignPhoneNumber", (t) =>
  t.field({
    type: AssignPhoneNumberPayload,
    description:
      "Assigns a phone number to an agent, sending `phoneNumberId` and `agentId` (POST /v1/phone-numbers/assign).",
    args: { input: t.arg({ type: AssignPhoneNumberInput, required: true }) },
    extensions: callsOf("assignPhoneNumber"),
    resolve: async (_root, { input }, context) => {
      const agentId = assertId("agent", input.agentId, "input.agentId");
      const raw = await context.api.assignPhoneNumber({
        phoneNumberId: assertIdLength(input.phoneNumberId, "input.phoneNumberId"),
        agentId,
      });
      forgetAgent(context, agentId);
      return { phoneNumberId: input.phoneNumberId, agentId, raw };
    },
  }),
);
