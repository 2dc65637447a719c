import type { JsonObject } from "../upstream/json.ts";
import { builder, upstreamIdOf } from "./builder.ts";
import type { SchemaContext } from "./context.ts";
import { loadEach, onePromisePerKey } from "./load-each.ts";
import { nodeByIdQuery } from "./node-by-id.ts";
import { callsOf } from "./upstream-calls.ts";

/**
 * The REST API has no contact read operation, only the contact's stats (operation 10): a
 * Contact is its ID, plus the stats once loaded. Loading one proves it exists.
 */
export interface ContactShape {
  id: string;
  stats?: JsonObject;
}

export const Contact = builder.loadableNodeRef("Contact", {
  id: {
    description: "The contact's ID (`cnt_` prefix).",
    resolve: (contact: ContactShape) => contact.id,
  },
  load: (ids: string[], context) =>
    loadEach(
      ids,
      async (id): Promise<ContactShape> => ({
        id,
        stats: await context.api.getContactStats(id),
      }),
    ),
});

Contact.implement({
  description: "A contact the agents talk to.",
  fields: (t) => ({
    stats: t.field({
      type: "JSONObject",
      nullable: true,
      description: "Call and interaction statistics, as the upstream reports them.",
      extensions: callsOf("getContactStats"),
      // Not an async function: the stats a contact already carries are answered at once.
      resolve: (contact, _args, context) =>
        contact.stats ?? contactStats(context, upstreamIdOf("Contact", contact)),
    }),
  }),
});

/**
 * A contact's stats, one promise per contact and operation, through the Contact loader (which
 * `contact(id)` and `node` use too, so each contact costs one GET): the conversations of one
 * contact share it.
 */
const stats = onePromisePerKey((context, id) =>
  Contact.getDataloader(context)
    .load(id)
    .then((contact) => contact.stats ?? null),
);

export function contactStats(context: SchemaContext, id: string): Promise<JsonObject | null> {
  return stats.of(context, id);
}

nodeByIdQuery("contact", Contact, {
  noun: "A contact",
  how: ", proved to exist by loading its stats (GET /v1/contacts/{contactId}/stats)",
  calls: callsOf("getContactStats"),
});
