/** Component schemas of the error body and the three list envelopes (page, offset, cursor). */
import type {
  AgentDto,
  CampaignDto,
  ConversationDto,
  CursorResponse,
  ErrorBody,
  OffsetResponse,
  PageResponse,
} from "../../upstream/dto.ts";
import { arrayOf, count, dtoSchema, freeObject, int, nullable, ref, str } from "./helpers.ts";

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

export const envelopeSchemas = {
  Error: ErrorSchema,
  AgentPage,
  ConversationPage,
  CampaignPage,
};
