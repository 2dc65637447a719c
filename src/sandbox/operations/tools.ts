import { type Operation, ok } from "../operation-context.ts";
import type { WireToolCatalogResponse } from "../wire-shapes.ts";

/** Operation 13: the whole catalog, unpaginated (it is small and fixed). */
export const getToolCatalog: Operation = (ctx) => {
  const body: WireToolCatalogResponse = { items: ctx.org.tools };
  // The seed shows no body: `{ items }`, or the bare array.
  return ok(ctx.dialect.toolCatalog === "items" ? body : ctx.org.tools);
};
