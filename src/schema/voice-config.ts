import type { VoiceConfigDto, VoiceConfigInputDto } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import { patchBody } from "./patch-body.ts";

export const VoiceConfig = builder.objectRef<VoiceConfigDto>("VoiceConfig").implement({
  description: "One voice an agent can speak with.",
  fields: (t) => ({
    id: t.exposeID("id"),
    voiceId: t.exposeString("voiceId"),
    language: t.exposeString("language"),
    label: t.string({ nullable: true, resolve: (config) => config.label ?? null }),
    settings: t.field({ type: "JSONObject", resolve: (config) => config.settings ?? {} }),
    isDefault: t.boolean({ resolve: (config) => config.isDefault === true }),
  }),
});

export const VoiceConfigInput = builder.inputType("VoiceConfigInput", {
  description: "A voice config as sent upstream; an `id` naming an existing config keeps it.",
  fields: (t) => ({
    id: t.id(),
    voiceId: t.string({ required: true }),
    language: t.string({ required: true }),
    label: t.string(),
    settings: t.field({ type: "JSONObject" }),
    isDefault: t.boolean(),
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
