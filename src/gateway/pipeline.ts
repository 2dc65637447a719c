import type { Plugin } from "graphql-yoga";

// Plugins of every context shape meet in one list, as in yoga's own `plugins` option.
// biome-ignore lint/suspicious/noExplicitAny: each plugin states its own context's shape
type AnyPlugin = Plugin<any, any, any>;

/**
 * One entry of the gateway's pipeline: a plugin under a name, and the entries it must follow,
 * each with the guarantee that order keeps. yoga runs plugins' hooks in list order, so where two
 * plugins meet in one hook, the earlier one decides first.
 */
export interface PipelineEntry {
  name: string;
  /** Absent when a setting leaves the rule out (session mode off, GraphiQL off, …). */
  plugin: AnyPlugin | undefined;
  /** Entries that must come before this one (when present), each with the reason. */
  after?: Readonly<Record<string, string>>;
}

export class PipelineOrderError extends Error {}

/**
 * The plugins of a declared pipeline, in its order, once every stated `after` holds: an order
 * that breaks one fails at start-up, naming the guarantee, rather than answering wrongly.
 */
export function declaredPipeline(entries: readonly PipelineEntry[]): {
  plugins: AnyPlugin[];
  names: string[];
} {
  const present = entries.filter((entry) => entry.plugin !== undefined);
  const position = new Map(present.map((entry, index) => [entry.name, index]));
  if (position.size !== present.length)
    throw new PipelineOrderError("pipeline: a name is repeated");
  for (const [index, entry] of present.entries()) {
    for (const [before, why] of Object.entries(entry.after ?? {})) {
      const at = position.get(before);
      if (at !== undefined && at > index) {
        throw new PipelineOrderError(`pipeline: ${entry.name} must come after ${before}: ${why}`);
      }
    }
  }
  return {
    plugins: present.map((entry) => entry.plugin as AnyPlugin),
    names: present.map((entry) => entry.name),
  };
}
