/**
 * Component schemas: one per wire shape of src/upstream/dto.ts, checked field by field against
 * the DTO types by `dtoSchema` (see helpers.ts). Request bodies come from the sandbox's own zod
 * validators (request-bodies.ts).
 */

import {
  type AgentDto,
  type AgentStatsDto,
  type ContactDto,
  type ContactStatsDto,
  type ConversationDto,
  type ConversationStatusDto,
  ORGANIZATION_WRITABLE_FIELDS,
  type VoiceConfigDto,
} from "../../upstream/dto.ts";
import {
  AGENT_STATUSES,
  type AgentStatus,
  CONVERSATION_CHANNELS,
  CONVERSATION_DIRECTIONS,
  CONVERSATION_STATUSES,
  type ConversationStatus,
} from "../../upstream/enums.ts";
import { ID_PREFIX } from "../../upstream/ids.ts";
import { SANDBOX_ID_PREFIX } from "../ids.ts";
import { envelopeSchemas } from "./envelope-schemas.ts";
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
import { workspaceSchemas } from "./workspace-schemas.ts";

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

export const schemas: Record<SchemaName, Schema> = {
  ...requestBodySchemas,
  ...workspaceSchemas,
  ...envelopeSchemas,
  Organization,
  VoiceConfig,
  Agent,
  AgentUpdateResponse,
  AgentStats,
  Conversation,
  ConversationStatusView,
  Contact,
  ContactStats,
};
