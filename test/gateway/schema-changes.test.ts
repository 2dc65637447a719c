import { readFileSync } from "node:fs";
import {
  BreakingChangeType,
  buildSchema,
  findBreakingChanges,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { printedSchema } from "../../src/schema/print.ts";

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
