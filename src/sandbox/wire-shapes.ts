/**
 * The sandbox's own wire shapes: what it answers, as zod schemas. They are the one source of the
 * response schemas of its OpenAPI document (openapi/components.ts) and of its wire types; the
 * gateway's DTOs (src/upstream/dto.ts) are its own reading of the seed and are not shared, so
 * the gateway learns nothing of the sandbox's choices from them. Request bodies live beside the
 * code that validates them (agent-input.ts, request-shapes.ts).
 */
import { z } from "zod";
import { SANDBOX_ID_PREFIX } from "./ids.ts";
import { organizationFields } from "./request-shapes.ts";
import {
  AgentStatus,
  CampaignStatus,
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
  DocumentStatus,
} from "./vocabulary.ts";

const prefixedId = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}`))
    .describe(`Identifier with the \`${prefix}\` prefix.`);
const dateTime = () => z.iso.datetime({ offset: true });
const count = () => z.int().nonnegative();
const freeObject = (description = "Free-form JSON object.") =>
  z.record(z.string(), z.unknown()).describe(description);
/** A resource's shape: its `id`, which starts with the resource's prefix, then its fields. */
const resource = <T extends z.ZodRawShape>(kind: keyof typeof SANDBOX_ID_PREFIX, fields: T) =>
  z.object({ id: prefixedId(SANDBOX_ID_PREFIX[kind]), ...fields });
/** Counts keyed by the given values: every key optional, no other key. */
const countsBy = <T extends string>(values: readonly T[]) =>
  z.strictObject(
    Object.fromEntries(values.map((value) => [value, count().optional()])) as Record<
      T,
      z.ZodOptional<ReturnType<typeof count>>
    >,
  );

export const ErrorShape = z.object({
  error: z.object({
    code: z.string().describe("Machine-readable code, e.g. NOT_FOUND, INVALID_CURSOR."),
    message: z.string(),
    details: freeObject().optional(),
  }),
  requestId: z.string(),
});
/** `requestId` is left out by a dialect that sends none. */
export type WireErrorBody = Omit<z.infer<typeof ErrorShape>, "requestId"> & { requestId?: string };

export const OrganizationShape = z
  .looseObject({
    id: prefixedId(SANDBOX_ID_PREFIX.organization),
    ...organizationFields(() => z.string().nullable()),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .describe("The nine writable fields are null when unset; other fields may appear.");

export const VoiceConfigShape = resource("voiceConfig", {
  voiceId: z.string(),
  language: z.string(),
  label: z.string(),
  settings: freeObject("Voice settings."),
  isDefault: z.boolean(),
});
export type WireVoiceConfig = z.infer<typeof VoiceConfigShape>;

const agentFields = {
  id: prefixedId(SANDBOX_ID_PREFIX.agent),
  name: z.string(),
  primaryLanguage: z.string(),
  systemPrompt: z.string(),
  greeting: z.string(),
  model: z.string(),
  metadata: freeObject(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  supportedLanguages: z.array(z.string()),
  voiceConfigs: z.array(VoiceConfigShape),
};

/** The get/list/create agent shape: the sandbox always sends `status` there. */
export const AgentShape = z.object({ ...agentFields, status: AgentStatus });

/** Operation 4's answer: the agent without `status`, as the seed shows it. */
export const AgentUpdateResponseShape = z.object(agentFields);
export type WireAgent = z.infer<typeof AgentUpdateResponseShape>;

export const AgentPageShape = z.object({
  items: z.array(AgentShape),
  total: count(),
  page: z.int().min(1),
  pageSize: z.int().min(1).max(100),
});

export const AgentStatsShape = z.object({
  agentId: prefixedId(SANDBOX_ID_PREFIX.agent),
  totalConversations: count(),
  activeConversations: count(),
  byStatus: countsBy(ConversationStatus.options),
  byChannel: countsBy(ConversationChannel.options),
  averageDurationSeconds: z.number().nonnegative(),
  lastConversationAt: dateTime().nullable(),
});
export type WireAgentStats = z.infer<typeof AgentStatsShape>;

const conversationParties = {
  agentId: z.string().nullable(),
  contactId: z.string().nullable(),
  direction: ConversationDirection,
  channel: ConversationChannel,
};

export const ConversationShape = resource("conversation", {
  ...conversationParties,
  status: ConversationStatus,
  duration: count().describe("Seconds."),
  startedAt: dateTime(),
  endedAt: dateTime().nullable(),
  summary: z.string().nullable(),
  createdAt: dateTime(),
});
export type WireConversation = z.infer<typeof ConversationShape>;

export const ConversationPageShape = z.object({
  items: z.array(ConversationShape),
  total: count(),
  limit: z.int().min(1).max(100),
  offset: count(),
});

/** Operation 8: the seed's four fields, plus the status and the parties the sandbox adds. */
export const ConversationStatusViewShape = resource("conversation", {
  duration: count().describe("Seconds; grows while the call is in progress."),
  startedAt: dateTime(),
  endedAt: dateTime().nullable(),
  status: ConversationStatus,
  ...conversationParties,
});
export type WireConversationStatusView = z.infer<typeof ConversationStatusViewShape>;

export const ContactShape = resource("contact", {
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string(),
  email: z.string().nullable(),
  createdAt: dateTime(),
});
export type WireContact = z.infer<typeof ContactShape>;

export const ContactStatsShape = z.object({
  contactId: prefixedId(SANDBOX_ID_PREFIX.contact),
  totalConversations: count(),
  inbound: count(),
  outbound: count(),
  byStatus: countsBy(ConversationStatus.options),
  totalDurationSeconds: count(),
  lastInteractionAt: dateTime().nullable(),
});
export type WireContactStats = z.infer<typeof ContactStatsShape>;

export const CampaignShape = resource("campaign", {
  name: z.string(),
  status: CampaignStatus,
  agentId: z.string().nullable(),
  totalRows: count(),
  completedRows: count(),
  failedRows: count(),
  scheduledAt: dateTime().nullable(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type WireCampaign = z.infer<typeof CampaignShape>;

export const CampaignPageShape = z.object({
  items: z.array(CampaignShape),
  nextCursor: z.string().nullable().describe("Opaque; null on the last page."),
});

export const RetryCampaignResponseShape = z.object({
  campaignId: prefixedId(SANDBOX_ID_PREFIX.campaign),
  retriedRows: count(),
  status: CampaignStatus,
});
export type WireRetryCampaignResponse = z.infer<typeof RetryCampaignResponseShape>;

export const PhoneNumberShape = resource("phoneNumber", {
  number: z.string().describe("E.164 phone number."),
  country: z.string(),
  agentId: z.string().nullable(),
  assignedAt: dateTime().nullable(),
});
export type WirePhoneNumber = z.infer<typeof PhoneNumberShape>;

export const PropertyDefinitionShape = resource("property", {
  key: z.string(),
  label: z.string(),
  type: z.enum(["STRING", "NUMBER", "BOOLEAN", "DATE"]),
  createdAt: dateTime(),
});
export type WirePropertyDefinition = z.infer<typeof PropertyDefinitionShape>;

export const ToolCatalogEntryShape = resource("tool", {
  name: z.string(),
  description: z.string(),
  category: z.string(),
  type: z.enum(["FUNCTION", "INTEGRATION"]),
  parameters: freeObject("JSON Schema of the tool's parameters."),
});
export type WireToolCatalogEntry = z.infer<typeof ToolCatalogEntryShape>;

export const ToolCatalogResponseShape = z.object({ items: z.array(ToolCatalogEntryShape) });
export type WireToolCatalogResponse = z.infer<typeof ToolCatalogResponseShape>;

export const DocumentShape = resource("document", {
  name: z.string(),
  mimeType: z.string(),
  sizeBytes: count(),
  status: DocumentStatus,
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type WireDocument = z.infer<typeof DocumentShape>;

/** The three list envelopes of the seed (Pagination conventions), as the standard dialect sends them. */
export type WirePage<T> = { items: T[]; total: number; page: number; pageSize: number };
export type WireCursorPage<T> = { items: T[]; nextCursor: string | null };
export type WireOffsetPage<T> = { items: T[]; total: number; limit: number; offset: number };
