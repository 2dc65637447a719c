import { notFound } from "../error-codes.ts";
import { deleted, type Operation, param } from "../operation-context.ts";

/** Operation 9: 204 (or the dialect's 200 body) on success; deleting again is 404 (it no longer exists). */
export const deletePropertyDefinition: Operation = (ctx) => {
  const id = param(ctx, "propertyDefinitionId");
  if (!ctx.org.properties.delete(id)) throw notFound("Property definition", id);
  return deleted(ctx, id);
};
