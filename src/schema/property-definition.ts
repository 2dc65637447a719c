import { builder } from "./builder.ts";
import { assertId, idRule } from "./ids.ts";
import { callsOf } from "./upstream-calls.ts";

/**
 * The REST API can only delete a property definition; it has no read operation. The node is
 * therefore a reference: `node(id: "prp_…")` answers it without an upstream call and cannot
 * confirm that it exists.
 */
export const PropertyDefinition = builder.nodeRef<{ id: string }>("PropertyDefinition", {
  id: {
    description: "The property definition's ID (`prp_` prefix), as asked: never checked upstream.",
    resolve: (property) => property.id,
  },
});

PropertyDefinition.implement({
  description: "A custom property definition (only its ID: the REST API has no read operation).",
  fields: () => ({}),
});

const DeletePropertyDefinitionPayload = builder
  .objectRef<{ deletedId: string }>("DeletePropertyDefinitionPayload")
  .implement({
    description: "The result of `deletePropertyDefinition`.",
    fields: (t) => ({
      deletedId: t.exposeID("deletedId", {
        description: "The ID of the deleted property definition.",
      }),
    }),
  });

builder.mutationField("deletePropertyDefinition", (t) =>
  t.field({
    type: DeletePropertyDefinitionPayload,
    description:
      "Deletes a custom property definition (DELETE /v1/properties/{propertyDefinitionId}).",
    args: { id: t.arg.id({ required: true, extensions: idRule("property") }) },
    extensions: callsOf("deletePropertyDefinition"),
    resolve: async (_root, { id }, { api }) => {
      await api.deletePropertyDefinition(assertId("property", id));
      return { deletedId: id };
    },
  }),
);
