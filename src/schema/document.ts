import { DOCUMENT_STATUSES, type DocumentDto, type JsonObject } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import { assertId } from "./ids.ts";
import { enumOrNull, loadEach } from "./load-each.ts";

export const DocumentStatus = builder.enumType("DocumentStatus", { values: DOCUMENT_STATUSES });

/** The seed does not show a document body: every field may be missing, `raw` keeps it all. */
type DocumentShape = { id: string } & Partial<DocumentDto> & JsonObject;

export const Document = builder.loadableNodeRef("Document", {
  id: { resolve: (document: DocumentShape) => document.id },
  load: (ids: string[], context) =>
    loadEach(ids, (id) => context.api.getDocument(id) as Promise<DocumentShape>),
});

Document.implement({
  description: "A knowledge-base document.",
  fields: (t) => ({
    name: t.string({ nullable: true, resolve: (d) => d.name ?? null }),
    mimeType: t.string({ nullable: true, resolve: (d) => d.mimeType ?? null }),
    sizeBytes: t.int({ nullable: true, resolve: (d) => d.sizeBytes ?? null }),
    status: t.field({
      type: DocumentStatus,
      nullable: true,
      resolve: (d) => enumOrNull(DOCUMENT_STATUSES, d.status),
    }),
    createdAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.createdAt ?? null }),
    updatedAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.updatedAt ?? null }),
    raw: t.field({ type: "JSONObject", resolve: (d) => d }),
  }),
});

builder.queryField("document", (t) =>
  t.field({
    type: Document,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: (_root, { id }) => assertId("document", id),
  }),
);
