import type { SchemaTypes } from "@pothos/core";

/**
 * Adds plugins to a builder whose schema was already built: every later `toSchema` runs them,
 * the earlier never did. Pothos has no public way to: it names a builder's plugins in its
 * options and makes their instances anew at each build, from that list. Written against
 * @pothos/core 4.15.1 (held there by its patch, patches/); the test beside it
 * (test/schema/pothos-plugins-after-build.test.ts) fails naming this file when an upgrade stops
 * reading the list at each build.
 */
export function addPluginsAfterBuild<Types extends SchemaTypes>(
  builder: PothosSchemaTypes.SchemaBuilder<Types>,
  plugins: readonly string[],
): void {
  const options = builder.options as { plugins?: string[] };
  const known = options.plugins ?? [];
  options.plugins = [...known, ...plugins.filter((plugin) => !known.includes(plugin))];
}
