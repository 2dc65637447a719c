import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import RelayPlugin from "@pothos/plugin-relay";
import { DateTimeResolver, JSONObjectResolver } from "graphql-scalars";
import type { GatewayContext } from "../gateway/context.ts";
import type { JsonObject } from "../upstream/dto.ts";
import { typenameForId } from "./ids.ts";

export interface SchemaTypes {
  Context: GatewayContext;
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

export const builder = new SchemaBuilder<SchemaTypes>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    nodesOnConnection: true,
    edgesFieldOptions: { nullable: { list: false, items: false } },
    nodeFieldOptions: { nullable: false },
    // The upstream's prefixed IDs are already globally unique: they ARE the global IDs.
    encodeGlobalID: (_typename, id) => String(id),
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

builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSONObject", JSONObjectResolver);

// Every connection reports how many items the whole list holds, when the upstream tells.
builder.globalConnectionField("totalCount", (t) =>
  t.int({ nullable: true, resolve: (connection) => connection.totalCount }),
);

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
