import type { ConversationDto, JsonObject } from "./dto.ts";

/**
 * A conversation item as the schema reads it, whichever legitimate shape the upstream chose (the
 * seed does not show operation 7's items): the parties as `agentId`/`contactId` or as nested
 * references `agent: { id }`/`contact: { id }`. `raw` keeps the item exactly as received.
 */
export type ConversationItem = Partial<ConversationDto> & { id: string; raw: JsonObject };

export function readConversationItem(item: unknown): unknown {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  const raw = item as JsonObject;
  return {
    ...raw,
    agentId: partyId(raw.agentId, raw.agent),
    contactId: partyId(raw.contactId, raw.contact),
    raw,
  };
}

/** Operation 7's body with every item read; anything that is not a list body passes untouched. */
export function readConversationList(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const items = (body as { items?: unknown }).items;
  return Array.isArray(items) ? { ...body, items: items.map(readConversationItem) } : body;
}

function partyId(flat: unknown, nested: unknown): string | null {
  if (typeof flat === "string") return flat;
  if (typeof nested === "string") return nested;
  if (typeof nested === "object" && nested !== null) {
    const id = (nested as { id?: unknown }).id;
    if (typeof id === "string") return id;
  }
  return null;
}
