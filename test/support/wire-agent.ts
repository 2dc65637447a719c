/**
 * An agent as the REST API answers operation 4, for the purpose-built upstreams: only its ID and
 * name vary, and whatever a test overrides.
 */
export function wireAgent(id: string, name: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name,
    primaryLanguage: "en-US",
    status: "ACTIVE",
    systemPrompt: "",
    greeting: "",
    model: "gpt-4o",
    metadata: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    supportedLanguages: ["en-US"],
    voiceConfigs: [],
    ...overrides,
  };
}
