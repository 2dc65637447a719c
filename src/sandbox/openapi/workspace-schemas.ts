/** Component schemas of campaigns, phone numbers, properties, tools and documents. */

import type {
  CampaignDto,
  DocumentDto,
  PhoneNumberDto,
  PropertyDefinitionDto,
  RetryCampaignResponse,
  ToolCatalogEntryDto,
  ToolCatalogResponse,
} from "../../upstream/dto.ts";
import { CAMPAIGN_STATUSES, DOCUMENT_STATUSES } from "../../upstream/enums.ts";
import { ID_PREFIX } from "../../upstream/ids.ts";
import { SANDBOX_ID_PREFIX } from "../ids.ts";
import {
  arrayOf,
  count,
  dateTime,
  dtoSchema,
  enumOf,
  freeObject,
  nullable,
  prefixedId,
  ref,
  str,
} from "./helpers.ts";

/** Unions dto.ts declares without a value list: a record keyed by the union lists each once. */
const PROPERTY_TYPES: Record<PropertyDefinitionDto["type"], true> = {
  STRING: true,
  NUMBER: true,
  BOOLEAN: true,
  DATE: true,
};
const TOOL_TYPES: Record<ToolCatalogEntryDto["type"], true> = { FUNCTION: true, INTEGRATION: true };

const nullableString = () => nullable(str());

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

export const workspaceSchemas = {
  Campaign,
  RetryCampaignResponse: RetryCampaignResponseSchema,
  PhoneNumber,
  PropertyDefinition,
  ToolCatalogEntry,
  ToolCatalogResponse: ToolCatalogResponseSchema,
  Document,
};
