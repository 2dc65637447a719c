import { readFileSync } from "node:fs";
import {
  BreakingChangeType,
  buildSchema,
  findBreakingChanges,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
} from "graphql";
import { describe, expect, it } from "vitest";
import { printedSchema, printedSubgraph } from "../../src/schema/print.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";

// A breaking schema change fails unless the field was deprecated in a release first.

const released = buildSchema(
  readFileSync(new URL("../../schema/released.graphql", import.meta.url), "utf8"),
);

/** The breaking changes from `before` to `after` that no deprecation in `before` announced. */
function unannouncedBreaks(before: GraphQLSchema, after: GraphQLSchema): string[] {
  return findBreakingChanges(before, after)
    .filter((change) => {
      if (change.type !== BreakingChangeType.FIELD_REMOVED) return true;
      const [, typeName, fieldName] = /^(\w+)\.(\w+) was removed\.$/.exec(change.description) ?? [];
      const type = typeName === undefined ? undefined : before.getType(typeName);
      const fields = isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
      return !fields[fieldName ?? ""]?.deprecationReason;
    })
    .map((change) => `${change.type}: ${change.description}`);
}

describe("schema changes against the last release (schema/released.graphql)", () => {
  it("break nothing a client's documents may use, unless deprecated first", () => {
    expect(unannouncedBreaks(released, buildSchema(printedSchema()))).toEqual([]);
  });

  it("catch a removed field, and let it go once it was deprecated in the release", () => {
    const before = buildSchema("type Query { a: Int, b: Int }");
    const after = buildSchema("type Query { a: Int }");
    expect(unannouncedBreaks(before, after)).toEqual(["FIELD_REMOVED: Query.b was removed."]);
    const deprecated = buildSchema('type Query { a: Int, b: Int @deprecated(reason: "Use a.") }');
    expect(unannouncedBreaks(deprecated, after)).toEqual([]);
  });

  it("catch a changed type and a new required argument, deprecated or not", () => {
    const before = buildSchema("type Query { a(x: Int): Int }");
    const after = buildSchema("type Query { a(x: Int, y: Int!): String }");
    expect(unannouncedBreaks(before, after)).toHaveLength(2);
  });
});

/** The key fields of each entity of a subgraph SDL, by type. */
function entityKeys(sdl: string): Record<string, string[]> {
  const keys: Record<string, string[]> = {};
  for (const definition of parse(sdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const fields = (definition.directives ?? [])
      .filter((directive) => directive.name.value === "key")
      .map((key) => print(key.arguments?.find((arg) => arg.name.value === "fields")?.value ?? key));
    if (fields.length > 0) keys[definition.name.value] = fields;
  }
  return keys;
}

describe("the subgraph (schema/subgraph.graphql) against the last release", () => {
  // The subgraph leaves `@live` out (a router serves it itself); the release predates `@live`.
  it("breaks nothing a client's documents may use, unless deprecated first", () => {
    expect(unannouncedBreaks(released, subgraphSchema)).toEqual([]);
  });

  it("keeps every node type of the release that an ID can load an entity keyed by that ID", () => {
    // Other subgraphs extend and reference these types by their key: dropping one breaks them.
    // Organization's ID has no prefix, so neither `node` nor a router can load it by ID.
    const nodeTypes = Object.values(released.getTypeMap())
      .filter((type) => isObjectType(type) && type.getInterfaces().some((i) => i.name === "Node"))
      .map((type) => type.name)
      .filter((name) => name !== "Organization")
      .sort();
    const keys = entityKeys(printedSubgraph());
    expect(Object.keys(keys).sort()).toEqual(nodeTypes);
    for (const name of nodeTypes) expect(keys[name]).toEqual(['"id"']);
  });
});
