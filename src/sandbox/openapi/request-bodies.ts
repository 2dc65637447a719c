/**
 * Request body schemas derived from the zod schemas the sandbox validates bodies with, so the
 * document cannot drift from what the sandbox accepts: strict objects become
 * `additionalProperties: false`, optional fields drop out of `required`.
 */
import { type ZodType, z } from "zod";
import { createAgentShape, updateAgentShape, voiceConfigInputShape } from "../agent-input.ts";
import { updateOrganizationShape } from "../operations/organization.ts";
import { assignShape } from "../operations/phone-numbers.ts";
import type { Schema } from "./helpers.ts";

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of what `shape` accepts, without `$schema`. */
export function bodySchema(shape: ZodType, description: string): Schema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(shape, {
    target: "draft-2020-12",
    io: "input",
  });
  return { description, ...schema } as Schema;
}

export const requestBodySchemas = {
  UpdateOrganizationBody: bodySchema(
    updateOrganizationShape,
    "Every field is optional; unknown fields are rejected.",
  ),
  VoiceConfigInput: bodySchema(
    voiceConfigInputShape,
    "An `id` naming an existing voice config of the agent is kept; otherwise one is generated.",
  ),
  UpdateAgentBody: bodySchema(
    updateAgentShape,
    "Every field is optional; unknown fields are rejected. `voiceConfigs` replaces the list.",
  ),
  CreateAgentBody: bodySchema(createAgentShape, "`name` is required; unknown fields are rejected."),
  AssignPhoneNumberBody: bodySchema(
    assignShape,
    "Both identifiers are required; unknown fields are rejected.",
  ),
} satisfies Record<string, Schema>;
