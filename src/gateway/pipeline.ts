import type { Plugin } from "graphql-yoga";
import type { FactFlow, FactName } from "./execution/operation-facts.ts";

// Plugins of every context shape meet in one list, as in yoga's own `plugins` option.
// biome-ignore lint/suspicious/noExplicitAny: each plugin states its own context's shape
export type AnyPlugin = Plugin<any, any, any>;

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

/** One stage's facts, as the running pipeline passes them on. */
export interface StageFacts {
  name: string;
  produces: readonly FactName[];
  reads: readonly FactName[];
}

export class PipelineOrderError extends Error {}

/**
 * The plugins of a declared pipeline, in its order, once every stated `after` holds and every
 * fact a stage reads was produced by one earlier stage: an order that breaks one fails at
 * start-up, naming the guarantee or the fact, rather than answering wrongly.
 */
export function declaredPipeline(entries: readonly PipelineEntry[]): {
  plugins: AnyPlugin[];
  names: string[];
  facts: StageFacts[];
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
    facts: factsInOrder(present),
  };
}

/** Each stage's facts, once each read follows the one stage that produces it. */
function factsInOrder(present: readonly PipelineEntry[]): StageFacts[] {
  const stages = present.map((entry) => {
    const own = (entry.plugin as { facts?: FactFlow }).facts;
    return {
      name: entry.name,
      produces: own?.produces ?? [],
      reads: own?.reads ?? [],
    };
  });
  const producer = new Map<FactName, string>();
  for (const stage of stages) {
    for (const fact of stage.produces) {
      const other = producer.get(fact);
      if (other !== undefined) {
        throw new PipelineOrderError(`pipeline: ${fact} is produced by ${other} and ${stage.name}`);
      }
      producer.set(fact, stage.name);
    }
  }
  const produced = new Set<FactName>();
  for (const stage of stages) {
    for (const fact of stage.reads) {
      if (produced.has(fact)) continue;
      const by = producer.get(fact);
      throw new PipelineOrderError(
        by === undefined
          ? `pipeline: ${stage.name} reads ${fact}, which no stage produces`
          : `pipeline: ${stage.name} reads ${fact}, which ${by} produces only after it`,
      );
    }
    for (const fact of stage.produces) produced.add(fact);
  }
  return stages.filter((stage) => stage.produces.length > 0 || stage.reads.length > 0);
}
