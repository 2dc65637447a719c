import type { ToolCatalogEntryDto } from "../upstream/dto.ts";
import { UpstreamUnavailableError } from "../upstream/errors.ts";
import { isJsonObject, type JsonObject } from "../upstream/json.ts";
import { builder } from "./builder.ts";
import { readOnce } from "./read-once.ts";
import { carriedFields, rawField, rawResource } from "./shared-fields.ts";
import { callsOf } from "./upstream-calls.ts";

/** The seed does not show a catalog entry: every field may be missing, `raw` keeps it all. */
type ToolCatalogEntryShape = Partial<ToolCatalogEntryDto>;

const ToolCatalogEntry = builder.objectRef<ToolCatalogEntryShape>("ToolCatalogEntry").implement({
  description: "A tool or integration agents can use.",
  fields: (t) => ({
    id: t.id({
      nullable: true,
      description: "The tool's ID; null when the upstream does not send it as a string.",
      resolve: (e) => (typeof e.id === "string" ? e.id : null),
    }),
    name: carriedFields(t).string("name", "The tool's name"),
    description: carriedFields(t).string("description", "What the tool does"),
    category: carriedFields(t).string("category", "The catalog category the tool is listed under"),
    type: carriedFields(t).string(
      "type",
      "The kind of tool (`FUNCTION` or `INTEGRATION` in the sandbox)",
    ),
    parameters: t.field({
      type: "JSONObject",
      nullable: true,
      description: "The tool's parameters (a JSON Schema in the sandbox).",
      resolve: (e) => e.parameters ?? null,
    }),
    raw: rawField(t, rawResource("catalog entry"), (e) => e as unknown as JsonObject),
  }),
});

/** The catalog body is not shown by the seed: a bare array and `{ items }` are both read. */
function catalogEntries(body: unknown): ToolCatalogEntryShape[] {
  const items = Array.isArray(body) ? body : (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || !items.every(isJsonObject)) {
    throw new UpstreamUnavailableError(
      "INVALID_RESPONSE",
      "The tool catalog is neither a list nor an object with `items`.",
    );
  }
  return items as ToolCatalogEntryShape[];
}

builder.queryField("toolCatalog", (t) =>
  t.field({
    type: [ToolCatalogEntry],
    nullable: { list: true, items: false },
    description:
      "The tools and integrations agents can use (GET /v1/tools/catalog, read as a bare list or as `{ items }`).",
    extensions: callsOf("getToolCatalog"),
    resolve: async (_root, _args, context) =>
      catalogEntries(await readOnce(context, "toolCatalog", () => context.api.getToolCatalog())),
  }),
);
