import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import RelayPlugin from "@pothos/plugin-relay";
import { GraphQLScalarType } from "graphql";
import { DateTimeResolver, JSONObjectResolver } from "graphql-scalars";
import { UpstreamUnavailableError } from "../upstream/errors.ts";
import type { JsonObject } from "../upstream/json.ts";
import type { SchemaContext } from "./context.ts";
import { GATEWAY_ISSUED } from "./gateway-issued.ts";
import { typenameForId } from "./ids.ts";

export interface SchemaTypes {
  Context: SchemaContext;
  /** Fields are non-null unless they say otherwise: what may be missing is marked so. */
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string };
    /** ISO 8601 strings from the upstream are passed through; graphql-scalars validates them. */
    DateTime: { Input: Date; Output: Date | string };
    JSONObject: { Input: JsonObject; Output: JsonObject };
  };
  /** Every connection reports `totalCount`: null when the upstream cannot tell. */
  Connection: { totalCount: number | null };
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
}

/**
 * A node's global ID: the upstream's prefixed ID as it is. An upstream item without an ID is an
 * invalid answer, never the ID "undefined" (Pothos hands over String(id): a missing, null or
 * object ID arrives as one of these words).
 */
export function encodeNodeId(typename: string, id: string | number | bigint): string {
  const text = String(id);
  if (text !== "" && text !== "undefined" && text !== "null" && text !== "[object Object]") {
    return text;
  }
  throw new UpstreamUnavailableError(
    "INVALID_RESPONSE",
    `The upstream answered ${/^[AEIOU]/.test(typename) ? "an" : "a"} ${typename} without an ID.`,
  );
}

/**
 * The upstream ID of an item, to read what belongs to it (its stats, its conversations): an item
 * without one is the same invalid answer its `id` field gives, never a call for "undefined" or a
 * list left unfiltered.
 */
export function upstreamIdOf(typename: string, item: { id?: unknown }): string {
  return encodeNodeId(typename, item.id as string);
}

export const builder = new SchemaBuilder<SchemaTypes>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    nodesOnConnection: { description: "The items of this page, in order (the edges' nodes)." },
    edgesFieldOptions: {
      nullable: { list: false, items: false },
      description: "The items of this page, in order, each with its cursor.",
    },
    nodeFieldOptions: { nullable: false, description: "The item at this position." },
    cursorFieldOptions: {
      extensions: GATEWAY_ISSUED,
      description:
        "An opaque cursor for this position, to pass back to the same list with the same filters.",
    },
    pageInfoFieldOptions: { description: "Where this page lies in the whole list." },
    pageInfoTypeOptions: { description: "Where a page of a connection lies in the whole list." },
    hasNextPageFieldOptions: { description: "Whether items follow this page in the whole list." },
    hasPreviousPageFieldOptions: {
      description:
        "Whether items precede this page (on a forward-only list: whether `after` was given).",
    },
    startCursorFieldOptions: {
      extensions: GATEWAY_ISSUED,
      description: "The cursor of the page's first item; null when the page is empty.",
    },
    endCursorFieldOptions: {
      extensions: GATEWAY_ISSUED,
      description: "The cursor of the page's last item; null when the page is empty.",
    },
    idFieldOptions: {
      description: "The platform's prefixed ID, which is also the object's global ID.",
    },
    // The upstream's prefixed IDs are already globally unique: they ARE the global IDs.
    encodeGlobalID: encodeNodeId,
    decodeGlobalID: (globalID) => ({ typename: typenameForId(globalID) ?? "", id: globalID }),
    // `node`/`nodes` are defined in node.ts, to report a bad ID per item instead of per field.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: {
      description: "An object with a platform ID; the ID's prefix names its type.",
      resolveType: (value) => typenameForId((value as { id: string }).id) ?? null,
    },
  },
});

// Upstream timestamps are valid ISO 8601 in any offset and precision; clients get one form (UTC,
// milliseconds), so the same instant is the same string whatever the upstream wrote.
builder.addScalarType(
  "DateTime",
  new GraphQLScalarType({
    ...DateTimeResolver.toConfig(),
    serialize: (value) =>
      new Date(DateTimeResolver.serialize(value) as string | Date).toISOString(),
  }),
);
builder.addScalarType("JSONObject", JSONObjectResolver);

// Every connection reports how many items the whole list holds, when the upstream tells.
builder.globalConnectionField("totalCount", (t) =>
  t.int({
    nullable: true,
    description: "How many items the whole list holds; null when the upstream does not tell.",
    resolve: (connection) => connection.totalCount,
  }),
);

builder.queryType({
  description: "Reads, served by the platform's `/v1` REST API with the caller's API key.",
});
builder.mutationType({
  description: "Writes, each one upstream request with the caller's API key; never retried.",
});
builder.subscriptionType({
  description: "Live updates, served over SSE and graphql-ws.",
});
