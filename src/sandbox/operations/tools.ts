import type { ToolCatalogResponse } from "../../upstream/dto.ts";
import { type Operation, ok } from "../operation-context.ts";

/** Operation 13: the whole catalog, unpaginated (it is small and fixed). */
export const getToolCatalog: Operation = (ctx) => {
  const body: ToolCatalogResponse = { items: ctx.org.tools };
  // The seed shows no body: `{ items }`, or the bare array.
  return ok(ctx.dialect.toolCatalog === "items" ? body : ctx.org.tools);
};
