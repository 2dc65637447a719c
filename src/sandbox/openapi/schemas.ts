/**
 * Component schemas: one per wire shape of src/upstream/dto.ts, checked field by field against
 * the DTO types by `dtoSchema` (see helpers.ts). Request bodies come from the sandbox's own zod
 * validators (request-bodies.ts).
 */
import {
  AGENT_STATUSES,
  type AgentDto,
  type AgentStatsDto,
  type AgentStatus,
  CAMPAIGN_STATUSES,
  type CampaignDto,
  CONVERSATION_CHANNELS,
  CONVERSATION_DIRECTIONS,
  CONVERSATION_STATUSES,
  type ContactDto,
  type ContactStatsDto,
  type ConversationDto,
  type ConversationStatus,
  type ConversationStatusDto,
  type CursorResponse,
  DOCUMENT_STATUSES,
  type DocumentDto,
  type ErrorBody,
  ID_PREFIX,
  type OffsetResponse,
  ORGANIZATION_WRITABLE_FIELDS,
  type PageResponse,
  type PhoneNumberDto,
  type PropertyDefinitionDto,
  type RetryCampaignResponse,
  SANDBOX_ID_PREFIX,
  type ToolCatalogEntryDto,
  type ToolCatalogResponse,
  type VoiceConfigDto,
} from "../../upstream/dto.ts";
import {
  arrayOf,
  bool,
  count,
  countsBy,
  dateTime,
  dtoSchema,
  enumOf,
  freeObject,
  int,
  nullable,
  prefixedId,
  ref,
  type Schema,
  type SchemaName,
  str,
} from "./helpers.ts";
import { requestBodySchemas } from "./request-bodies.ts";

/** Unions dto.ts declares without a value list: a record keyed by the union lists each once. */
const PROPERTY_TYPES: Record<PropertyDefinitionDto["type"], true> = {
  STRING: true,
  NUMBER: true,
  BOOLEAN: true,
  DATE: true,
};
const TOOL_TYPES: Record<ToolCatalogEntryDto["type"], true> = { FUNCTION: true, INTEGRATION: true };

const VoiceConfig = dtoSchema<VoiceConfigDto>()(
  {
    id: prefixedId(SANDBOX_ID_PREFIX.voiceConfig),
    voiceId: str(),
    language: str(),
    label: str(),
    settings: freeObject("Voice settings."),
    isDefault: bool(),
  },
  "all",
);

const agentFields = {
  id: prefixedId(ID_PREFIX.agent),
  name: str(),
  primaryLanguage: str(),
  systemPrompt: str(),
  greeting: str(),
  model: str(),
  metadata: freeObject(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  supportedLanguages: arrayOf(str()),
  voiceConfigs: arrayOf(ref("VoiceConfig")),
};
/** The get/list/create agent shape: the sandbox always sends `status` there. */
const Agent = dtoSchema<AgentDto & { status: AgentStatus }>()(
  { ...agentFields, status: enumOf(AGENT_STATUSES) },
  "all",
);

/** The update-agent (operation 4) shape: the agent without `status`, as the seed shows it. */
const AgentUpdateResponse = dtoSchema<Omit<AgentDto, "status">>()(agentFields, "all");

const nullableString = () => nullable(str());

/** OrganizationDto has an index signature, so it is written out by hand. */
const Organization: Schema = {
  type: "object",
  description: "The nine writable fields are null when unset; other fields may appear.",
  properties: {
    id: prefixedId(SANDBOX_ID_PREFIX.organization),
    ...Object.fromEntries(ORGANIZATION_WRITABLE_FIELDS.map((f) => [f, nullableString()])),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  },
  additionalProperties: true,
};

const Conversation = dtoSchema<ConversationDto>()(
  {
    id: prefixedId(ID_PREFIX.conversation),
    agentId: nullableString(),
    contactId: nullableString(),
    status: enumOf(CONVERSATION_STATUSES),
    direction: enumOf(CONVERSATION_DIRECTIONS),
    channel: enumOf(CONVERSATION_CHANNELS),
    duration: int({ minimum: 0, description: "Seconds." }),
    startedAt: dateTime(),
    endedAt: nullable(dateTime()),
    summary: nullableString(),
    createdAt: dateTime(),
  },
  "all",
);

/** Operation 8; the sandbox always adds the status and the parties to the seed's four fields. */
const ConversationStatusView = dtoSchema<
  Required<ConversationStatusDto> & { status: ConversationStatus }
>()(
  {
    id: prefixedId(ID_PREFIX.conversation),
    duration: int({ minimum: 0, description: "Seconds; grows while the call is in progress." }),
    startedAt: dateTime(),
    endedAt: nullable(dateTime()),
    status: enumOf(CONVERSATION_STATUSES),
    agentId: nullableString(),
    contactId: nullableString(),
    direction: enumOf(CONVERSATION_DIRECTIONS),
    channel: enumOf(CONVERSATION_CHANNELS),
  },
  "all",
);

const Contact = dtoSchema<ContactDto>()(
  {
    id: prefixedId(ID_PREFIX.contact),
    firstName: str(),
    lastName: str(),
    phoneNumber: str(),
    email: nullableString(),
    createdAt: dateTime(),
  },
  "all",
);

const ContactStats = dtoSchema<ContactStatsDto>()(
  {
    contactId: prefixedId(ID_PREFIX.contact),
    totalConversations: count(),
    inbound: count(),
    outbound: count(),
    byStatus: countsBy(CONVERSATION_STATUSES),
    totalDurationSeconds: count(),
    lastInteractionAt: nullable(dateTime()),
  },
  "all",
);

const AgentStats = dtoSchema<AgentStatsDto>()(
  {
    agentId: prefixedId(ID_PREFIX.agent),
    totalConversations: count(),
    activeConversations: count(),
    byStatus: countsBy(CONVERSATION_STATUSES),
    byChannel: countsBy(CONVERSATION_CHANNELS),
    averageDurationSeconds: { type: "number", minimum: 0 },
    lastConversationAt: nullable(dateTime()),
  },
  "all",
);

const Campaign = dtoSchema<CampaignDto>()(
  {
    id: prefixedId(ID_PREFIX.campaign),
    name: str(),
    status: enumOf(CAMPAIGN_STATUSES),
    agentId: nullableString(),
    totalRows: count(),
    completedRows: count(),
    failedRows: count(),
    scheduledAt: nullable(dateTime()),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  },
  "all",
);

const RetryCampaignResponseSchema = dtoSchema<RetryCampaignResponse>()(
  {
    campaignId: prefixedId(ID_PREFIX.campaign),
    retriedRows: count(),
    status: enumOf(CAMPAIGN_STATUSES),
  },
  "all",
);

const PhoneNumber = dtoSchema<PhoneNumberDto>()(
  {
    id: prefixedId(SANDBOX_ID_PREFIX.phoneNumber),
    number: str("E.164 phone number."),
    country: str(),
    agentId: nullableString(),
    assignedAt: nullable(dateTime()),
  },
  "all",
);

const PropertyDefinition = dtoSchema<PropertyDefinitionDto>()(
  {
    id: prefixedId(ID_PREFIX.property),
    key: str(),
    label: str(),
    type: enumOf(Object.keys(PROPERTY_TYPES)),
    createdAt: dateTime(),
  },
  "all",
);

const ToolCatalogEntry = dtoSchema<ToolCatalogEntryDto>()(
  {
    id: prefixedId(SANDBOX_ID_PREFIX.tool),
    name: str(),
    description: str(),
    category: str(),
    type: enumOf(Object.keys(TOOL_TYPES)),
    parameters: freeObject("JSON Schema of the tool's parameters."),
  },
  "all",
);

const ToolCatalogResponseSchema = dtoSchema<ToolCatalogResponse>()(
  { items: arrayOf(ref("ToolCatalogEntry")) },
  "all",
);

const Document = dtoSchema<DocumentDto>()(
  {
    id: prefixedId(ID_PREFIX.document),
    name: str(),
    mimeType: str(),
    sizeBytes: count(),
    status: enumOf(DOCUMENT_STATUSES),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  },
  "all",
);

const ErrorSchema = dtoSchema<ErrorBody & { requestId: string }>()(
  {
    error: dtoSchema<ErrorBody["error"]>()(
      {
        code: str("Machine-readable code, e.g. NOT_FOUND, INVALID_CURSOR."),
        message: str(),
        details: freeObject(),
      },
      ["code", "message"],
    ),
    requestId: str(),
  },
  "all",
);

const AgentPage = dtoSchema<PageResponse<AgentDto>>()(
  {
    items: arrayOf(ref("Agent")),
    total: count(),
    page: int({ minimum: 1 }),
    pageSize: int({ minimum: 1, maximum: 100 }),
  },
  "all",
);

const ConversationPage = dtoSchema<OffsetResponse<ConversationDto>>()(
  {
    items: arrayOf(ref("Conversation")),
    total: count(),
    limit: int({ minimum: 1, maximum: 100 }),
    offset: count(),
  },
  "all",
);

const CampaignPage = dtoSchema<CursorResponse<CampaignDto>>()(
  {
    items: arrayOf(ref("Campaign")),
    nextCursor: nullable(str("Opaque; null on the last page.")),
  },
  "all",
);

export const schemas: Record<SchemaName, Schema> = {
  ...requestBodySchemas,
  Error: ErrorSchema,
  Organization,
  VoiceConfig,
  Agent,
  AgentUpdateResponse,
  AgentPage,
  AgentStats,
  Conversation,
  ConversationPage,
  ConversationStatusView,
  Contact,
  ContactStats,
  Campaign,
  CampaignPage,
  RetryCampaignResponse: RetryCampaignResponseSchema,
  PhoneNumber,
  PropertyDefinition,
  ToolCatalogEntry,
  ToolCatalogResponse: ToolCatalogResponseSchema,
  Document,
};
