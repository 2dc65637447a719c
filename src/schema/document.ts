import type { DocumentDto } from "../upstream/dto.ts";
import { DOCUMENT_STATUSES } from "../upstream/enums.ts";
import type { JsonObject } from "../upstream/json.ts";
import { builder } from "./builder.ts";
import { enumOrNull, loadEach } from "./load-each.ts";
import { nodeByIdQuery } from "./node-by-id.ts";
import { carriedFields, rawField, rawResource } from "./shared-fields.ts";
import { callsOf } from "./upstream-calls.ts";

export const DocumentStatus = builder.enumType("DocumentStatus", {
  description:
    "A document's processing state (the sandbox's set: the REST API names none); an upstream value the schema does not know resolves to null.",
  values: DOCUMENT_STATUSES,
});

/** The seed does not show a document body: every field may be missing, `raw` keeps it all. */
type DocumentShape = { id: string } & Partial<DocumentDto>;

export const Document = builder.loadableNodeRef("Document", {
  id: {
    description: "The document's ID (`doc_` prefix).",
    resolve: (document: DocumentShape) => document.id,
  },
  load: (ids: string[], context) =>
    loadEach(ids, (id) => context.api.getDocument(id) as Promise<DocumentShape>),
});

Document.implement({
  description: "A knowledge-base document.",
  fields: (t) => ({
    name: carriedFields(t).string("name", "The document's name"),
    mimeType: carriedFields(t).string(
      "mimeType",
      "The document's media type, such as `application/pdf`",
    ),
    sizeBytes: carriedFields(t).int("sizeBytes", "The document's size in bytes"),
    status: t.field({
      type: DocumentStatus,
      nullable: true,
      description:
        "The document's processing state; null when the upstream does not send a known one.",
      resolve: (d) => enumOrNull(DOCUMENT_STATUSES, d.status),
    }),
    createdAt: carriedFields(t).dateTime("createdAt", "When the document was created (ISO 8601)"),
    updatedAt: carriedFields(t).dateTime(
      "updatedAt",
      "When the document was last changed (ISO 8601)",
    ),
    raw: rawField(t, rawResource("document object"), (d) => d as unknown as JsonObject),
  }),
});

nodeByIdQuery("document", Document, {
  noun: "A knowledge-base document",
  how: " (GET /v1/documents/{documentId})",
  calls: callsOf("getDocument"),
});
