import type { ToolCatalogResponse } from "../../upstream/dto.ts";
import { type Operation, ok } from "../operation-context.ts";

/** Operation 13: the whole catalog, unpaginated (it is small and fixed). */
export const getToolCatalog: Operation = (ctx) => {
  const body: ToolCatalogResponse = { items: ctx.org.tools };
  return ok(body);
};
