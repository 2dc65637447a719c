import { notFound } from "../error-codes.ts";
import { type Operation, ok, param } from "../operation-context.ts";

/** Operation 14. */
export const getDocument: Operation = (ctx) => {
  const id = param(ctx, "documentId");
  const document = ctx.org.documents.get(id);
  if (document === undefined) throw notFound("Document", id);
  return ok(document);
};
