import { type GraphQLResolveInfo, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.ts";
import { UpstreamUnavailableError } from "../../src/upstream/errors.ts";

const nodeTypes = Object.values(schema.getTypeMap()).filter(
  (type) => isObjectType(type) && type.getInterfaces().some((node) => node.name === "Node"),
);

function resolveId(typename: string, parent: unknown): unknown {
  const type = schema.getType(typename);
  if (!isObjectType(type)) throw new Error(typename);
  const resolve = type.getFields().id?.resolve;
  if (!resolve) throw new Error(`${typename}.id has no resolver`);
  return resolve(parent, {}, {}, {} as GraphQLResolveInfo);
}

describe("a node's id", () => {
  it("is the upstream's ID, answered at once (no promise per ID)", () => {
    expect(nodeTypes.map((type) => type.name).sort()).toEqual(
      expect.arrayContaining(["Agent", "Campaign", "Contact", "Conversation"]),
    );
    for (const type of nodeTypes) {
      expect(resolveId(type.name, { id: "xyz_1" }), type.name).toBe("xyz_1");
    }
  });

  it("refuses an item without a usable ID at once, as an invalid answer", () => {
    for (const id of [undefined, null, "", { id: "x" }]) {
      expect(() => resolveId("Conversation", { id })).toThrow(UpstreamUnavailableError);
      expect(() => resolveId("Conversation", { id })).toThrow(
        "The upstream answered a Conversation without an ID.",
      );
    }
    expect(() => resolveId("Agent", {})).toThrow("an Agent without an ID");
  });
});
