import type { StatusEvent } from "../gateway/conversation-status-hub.ts";
import { CONVERSATION_STATUSES, type ConversationStatusDto } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import { ConversationStatus } from "./conversation.ts";
import { assertId } from "./ids.ts";
import { enumOrNull } from "./load-each.ts";

const ConversationStatusUpdate = builder
  .objectRef<ConversationStatusDto>("ConversationStatusUpdate")
  .implement({
    description: "The status view of a conversation (operation 8), as it changes.",
    fields: (t) => ({
      id: t.exposeID("id", { description: "The conversation's ID (`cnv_` prefix)." }),
      status: t.field({
        type: ConversationStatus,
        nullable: true,
        description: "The call's status; null when the upstream's view does not carry a known one.",
        resolve: (update) => enumOrNull(CONVERSATION_STATUSES, update.status),
      }),
      duration: t.int({
        nullable: true,
        description: "Seconds so far (the upstream does not state the unit); null when omitted.",
        resolve: (update) => update.duration ?? null,
      }),
      startedAt: t.field({
        type: "DateTime",
        nullable: true,
        description: "When the call started (ISO 8601); null when the upstream omits it.",
        resolve: (update) => update.startedAt ?? null,
      }),
      endedAt: t.field({
        type: "DateTime",
        nullable: true,
        description: "When the call ended (ISO 8601); null while it goes on.",
        resolve: (update) => update.endedAt ?? null,
      }),
      ended: t.boolean({
        description: "True once the call has ended; the subscription then completes.",
        resolve: (update) => update.endedAt != null,
      }),
    }),
  });

builder.subscriptionField("conversationStatus", (t) =>
  t.field({
    type: ConversationStatusUpdate,
    description:
      "Follows a live call: emits the status when it changes and completes after the call ends.",
    args: { id: t.arg.id({ required: true }) },
    extensions: { upstreamCalls: 1 },
    subscribe: (_root, { id }, context) =>
      context.conversationStatusHub.subscribe(
        context.authorization ?? "",
        assertId("conversation", id),
      ),
    resolve: (event: StatusEvent) => {
      if (event instanceof Error) throw event;
      return event;
    },
  }),
);
