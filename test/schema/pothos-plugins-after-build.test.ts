import SchemaBuilder from "@pothos/core";
import DirectivesPlugin from "@pothos/plugin-directives";
import { describe, expect, it } from "vitest";
import { addPluginsAfterBuild } from "../../src/schema/pothos-plugins-after-build.ts";

const ADAPTER = "src/schema/pothos-plugins-after-build.ts";

/** A builder with one query field, whose type asks for a directive only a plugin prints. */
function probeBuilder() {
  const builder = new SchemaBuilder({});
  builder.queryType({
    extensions: { directives: [{ name: "probe", args: {} }] },
    fields: (t) => ({ ok: t.boolean({ resolve: () => true }) }),
  });
  return builder;
}

describe(ADAPTER, () => {
  it("makes every build after it run the added plugins, and no build before it", () => {
    const builder = probeBuilder();
    const before = builder.toSchema();
    addPluginsAfterBuild(builder, [DirectivesPlugin]);
    const after = builder.toSchema();
    expect(before.getQueryType()?.astNode, `${ADAPTER}: a built schema changed`).toBeUndefined();
    expect(
      after.getQueryType()?.astNode?.directives?.map((directive) => directive.name.value),
      `${ADAPTER}: Pothos no longer makes a builder's plugins from its options at each build`,
    ).toEqual(["probe"]);
  });

  it("adds a plugin once however often it is asked", () => {
    const builder = probeBuilder();
    addPluginsAfterBuild(builder, [DirectivesPlugin]);
    addPluginsAfterBuild(builder, [DirectivesPlugin]);
    expect(builder.options.plugins).toEqual([DirectivesPlugin]);
  });
});
