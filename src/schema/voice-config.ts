import type { VoiceConfigDto, VoiceConfigInputDto } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import { REFUSES_NULL } from "./ids.ts";
import { patchBody } from "./patch-body.ts";
import { carriedFields } from "./shared-fields.ts";

export const VoiceConfig = builder.objectRef<VoiceConfigDto>("VoiceConfig").implement({
  description: "One voice an agent can speak with.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The voice config's ID, as the upstream assigns it." }),
    voiceId: t.exposeString("voiceId", { description: "The upstream's identifier of the voice." }),
    language: t.exposeString("language", { description: "The language spoken with this voice." }),
    label: carriedFields(t).string("label", "A human-readable label"),
    settings: t.field({
      type: "JSONObject",
      description: "Free-form voice settings; `{}` when the upstream's answer does not carry them.",
      resolve: (config) => config.settings ?? {},
    }),
    isDefault: t.boolean({
      description:
        "Whether this is the agent's default voice; false unless the upstream says true.",
      resolve: (config) => config.isDefault === true,
    }),
  }),
});

export const VoiceConfigInput = builder.inputType("VoiceConfigInput", {
  description: "A voice config as sent upstream; an `id` naming an existing config keeps it.",
  extensions: REFUSES_NULL,
  fields: (t) => ({
    id: t.id({ description: "The ID of an existing voice config to keep; omit it for a new one." }),
    voiceId: t.string({ required: true, description: "The upstream's identifier of the voice." }),
    language: t.string({ required: true, description: "The language spoken with this voice." }),
    label: t.string({ description: "A human-readable label." }),
    settings: t.field({ type: "JSONObject", description: "Free-form voice settings." }),
    isDefault: t.boolean({ description: "Whether this is the agent's default voice." }),
  }),
});

type VoiceConfigArg = typeof VoiceConfigInput.$inferInput;

/** The request elements: each holds exactly the fields given, an explicit null refused. */
export function voiceConfigsBody(configs: VoiceConfigArg[], path: string): VoiceConfigInputDto[] {
  return configs.map((config, index) => {
    const { voiceId, language, ...rest } = config;
    return { voiceId, language, ...patchBody(rest, `${path}[${index}]`) };
  });
}
