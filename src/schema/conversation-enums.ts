import {
  CONVERSATION_CHANNELS,
  CONVERSATION_DIRECTIONS,
  CONVERSATION_STATUSES,
} from "../upstream/enums.ts";
import { builder } from "./builder.ts";

export const ConversationStatus = builder.enumType("ConversationStatus", {
  description:
    "A conversation's status; `IN_PROGRESS` marks a live call. An upstream value the schema does not know resolves to null.",
  values: CONVERSATION_STATUSES,
});
export const ConversationDirection = builder.enumType("ConversationDirection", {
  description:
    "Which way a conversation went: in to the organization (`INBOUND`) or out from it (`OUTBOUND`).",
  values: CONVERSATION_DIRECTIONS,
});
export const ConversationChannel = builder.enumType("ConversationChannel", {
  description: "The medium of a conversation: a voice call, a chat or SMS messages.",
  values: CONVERSATION_CHANNELS,
});
