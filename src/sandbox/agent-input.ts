import { z } from "zod";
import { invalidField } from "./body-validation.ts";
import { ApiError } from "./error-codes.ts";
import { newId, SANDBOX_ID_PREFIX } from "./ids.ts";
import type { AgentRecord, OrgData } from "./store.ts";
import type { AgentStatus } from "./vocabulary.ts";
import { AgentUpdateResponseShape, type WireAgent, type WireVoiceConfig } from "./wire-shapes.ts";

const jsonObject = z.record(z.string(), z.unknown());

export const voiceConfigInputShape = z
  .strictObject({
    id: z.string().optional(),
    voiceId: z.string(),
    language: z.string(),
    label: z.string().optional(),
    settings: jsonObject.optional(),
    isDefault: z.boolean().optional(),
  })
  .describe(
    "An `id` naming an existing voice config of the agent is kept; otherwise one is generated.",
  );

/** The agent's text settings, as the sandbox answers them (wire-shapes.ts), each optional. */
const textSettings = AgentUpdateResponseShape.pick({
  name: true,
  primaryLanguage: true,
  systemPrompt: true,
  greeting: true,
  model: true,
}).partial().shape;

/** Operation 4's body: every field optional, nothing else allowed (status is not writable). */
export const updateAgentShape = z
  .strictObject({
    ...textSettings,
    voiceConfigs: z.array(voiceConfigInputShape).optional(),
    metadata: jsonObject.optional(),
  })
  .describe(
    "Every field is optional; unknown fields are rejected. `voiceConfigs` replaces the list.",
  );

/** The assumed create body: `name` required, plus `supportedLanguages`. */
export const createAgentShape = updateAgentShape
  .extend({
    name: z.string(),
    supportedLanguages: z.array(z.string()).optional(),
  })
  .describe("`name` is required; unknown fields are rejected.");

function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

export function checkLanguage(field: string, value: string | undefined): void {
  if (value !== undefined && !isLanguageTag(value)) {
    throw invalidField(field, "must be a BCP 47 language tag, e.g. en-US");
  }
}

/** Names are unique per organization, ignoring case and surrounding spaces. */
export function checkName(org: OrgData, name: string | undefined, selfId?: string): void {
  if (name === undefined) return;
  const trimmed = name.trim();
  if (trimmed === "") throw invalidField("name", "must not be empty");
  if (trimmed.length > 200) throw invalidField("name", "must be at most 200 characters");
  const key = trimmed.toLowerCase();
  for (const agent of org.agents.values()) {
    if (agent.id !== selfId && agent.name.trim().toLowerCase() === key) {
      throw new ApiError("CONFLICT", `An agent named "${trimmed}" already exists.`, {
        field: "name",
        conflictingId: agent.id,
      });
    }
  }
}

export function checkModel(model: string | undefined): void {
  if (model !== undefined && model.trim() === "") throw invalidField("model", "must not be empty");
}

/**
 * The new voice config list (a PATCH replaces the whole list). An element whose `id` names one
 * of the agent's configs keeps that id; any other element gets a new `vc_` id.
 */
export function buildVoiceConfigs(
  inputs: z.infer<typeof voiceConfigInputShape>[],
  existing: WireVoiceConfig[],
): WireVoiceConfig[] {
  const existingIds = new Set(existing.map((config) => config.id));
  const seenIds = new Set<string>();
  let defaults = 0;
  return inputs.map((input, index) => {
    const field = `voiceConfigs[${index}]`;
    if (input.voiceId.trim() === "") throw invalidField(`${field}.voiceId`, "must not be empty");
    checkLanguage(`${field}.language`, input.language);
    if (input.id !== undefined) {
      if (seenIds.has(input.id)) throw invalidField(`${field}.id`, "repeats another element's id");
      seenIds.add(input.id);
    }
    if (input.isDefault === true && ++defaults > 1) {
      throw invalidField(`${field}.isDefault`, "is true on more than one voice config");
    }
    return {
      id:
        input.id !== undefined && existingIds.has(input.id)
          ? input.id
          : newId(SANDBOX_ID_PREFIX.voiceConfig),
      voiceId: input.voiceId,
      language: input.language,
      label: input.label ?? input.voiceId,
      settings: input.settings ?? {},
      isDefault: input.isDefault ?? false,
    };
  });
}

/** Operation 4's response shape: the agent without `status`. */
export function agentWithoutStatus(agent: AgentRecord): WireAgent {
  const { status: _status, ...rest } = agent;
  return rest;
}

export const DEFAULT_AGENT: {
  primaryLanguage: string;
  model: string;
  status: AgentStatus;
} = { primaryLanguage: "en-US", model: "gpt-4o", status: "ACTIVE" };
