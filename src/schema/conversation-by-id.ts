import type { ConversationDto } from "../upstream/dto.ts";
import { UpstreamUnavailableError } from "../upstream/errors.ts";
import { listOf } from "../upstream/operations.ts";
import type { SchemaContext } from "./context.ts";
import { loadEach } from "./load-each.ts";
import { listKey, readOnce } from "./read-once.ts";
import { callsOf } from "./upstream-calls.ts";

/** `conversation(id)` and `node(id)` of a conversation: its status view, then one list page. */
export const CONVERSATION_BY_ID_CALLS = callsOf("getConversationStatus", "listConversations");

/**
 * Conversations by ID, each as its full list item, so `conversation(id)`, `node(id)` and every
 * list agree on every field (one ID, one truth; normalised client caches depend on it). The seed
 * has no read of one conversation: operation 8 gives its `startedAt`, and operation 7 filtered to
 * that start time holds the item. IDs that started in the same second share one list request.
 */
export async function loadConversationsById(
  ids: readonly string[],
  context: SchemaContext,
): Promise<(ConversationDto | Error)[]> {
  const views = await loadEach(ids, (id) => context.api.getConversationStatus(id));
  return Promise.all(
    views.map(async (view, index) => {
      if (view instanceof Error) return view;
      try {
        return await conversationOfView(context, { ...view, id: ids[index] as string }, "cached");
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    }),
  );
}

/**
 * The full item of the conversation whose status view is `view`. "fresh" reads the list again
 * even if this operation already did (a subscription's context outlives each of its events).
 */
export async function conversationOfView(
  context: SchemaContext,
  view: { id: string; startedAt?: unknown },
  reading: "cached" | "fresh",
): Promise<ConversationDto> {
  const startedAt = typeof view.startedAt === "string" ? Date.parse(view.startedAt) : NaN;
  if (Number.isNaN(startedAt)) throw notListed(view.id, "its status view has no start time");
  const items = await itemsStartedAt(context, startedAt, reading);
  const item = items.find((candidate) => candidate.id === view.id);
  if (item === undefined) throw notListed(view.id, "the list does not hold it");
  return item;
}

/**
 * The items that started within the second of `startedAtMs`: a window, not an instant, so an
 * upstream whose `endDate` is exclusive or whose clock has second precision still holds the item.
 */
async function itemsStartedAt(
  context: SchemaContext,
  startedAtMs: number,
  reading: "cached" | "fresh",
) {
  const second = Math.floor(startedAtMs / 1000) * 1000;
  const query = {
    limit: listOf("listConversations").maxSize,
    startDate: new Date(second).toISOString(),
    endDate: new Date(second + 999).toISOString(),
  };
  const read = () => context.api.listConversations(query);
  const body = await (reading === "fresh"
    ? read()
    : readOnce(context, listKey("conversations", query), read));
  return Array.isArray(body.items) ? body.items : [];
}

function notListed(id: string, why: string): Error {
  return new UpstreamUnavailableError(
    "INVALID_RESPONSE",
    `The conversation ${id} could not be read in full: ${why}`,
  );
}
