import type { ConversationStatusDto } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import type { StatusEvent } from "./context.ts";
import { Conversation } from "./conversation.ts";
import { conversationOfView } from "./conversation-by-id.ts";
import { assertId, idRule } from "./ids.ts";
import { callTimingFields } from "./shared-fields.ts";
import { callsOf } from "./upstream-calls.ts";

/**
 * One change of a live call. It has no ID of its own (an ID belongs to one type only): the
 * conversation it carries is the same object `conversation(id)` answers, so a client's cached
 * `Conversation` is updated in place.
 */
const ConversationStatusUpdate = builder
  .objectRef<ConversationStatusDto>("ConversationStatusUpdate")
  .implement({
    description:
      "A live call's figures as they change (operation 8), with the conversation itself, so a client's cached Conversation is updated in place.",
    fields: (t) => ({
      conversation: t.field({
        type: Conversation,
        description:
          "The conversation as it is now: the same item `conversation(id)` answers (one list request per update when selected).",
        extensions: callsOf("listConversations"),
        resolve: (update, _args, context) => conversationOfView(context, update, "fresh"),
      }),
      ...callTimingFields(t),
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
      "Follows a live call: emits when its status view changes and completes after the call ends.",
    args: { id: t.arg.id({ required: true, extensions: idRule("conversation") }) },
    // The hub's poll of operation 8, shared by every subscriber of the call across the fleet.
    extensions: callsOf("getConversationStatus"),
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
