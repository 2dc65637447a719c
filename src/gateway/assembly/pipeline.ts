import type { ExecutionArgs, ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { FactFlow, FactName } from "../execution/operation-facts.ts";

// Plugins of every context shape meet in one list, as in yoga's own `plugins` option.
// biome-ignore lint/suspicious/noExplicitAny: each plugin states its own context's shape
export type AnyPlugin = Plugin<any, any, any>;

/** A check of an operation before it runs: its refusal, or undefined to let it run. */
export type Judge = (args: ExecutionArgs) => ExecutionResult | undefined;

/**
 * How the prepared lane, which answers a warm query without yoga's request machinery, keeps an
 * entry's promise (docs/operations.md, "The prepared lane"):
 * - `"judges"`: the entry's `judge` runs in the lane too, in pipeline order;
 * - `mirrors`: the lane does the entry's job itself, or never serves a request the entry acts
 *   on; the reason says which (test/gateway/fast-path-differential.property.test.ts holds it);
 * - `stepsAside`: while the entry is present, the lane and the fast path answer nothing, and
 *   every request takes yoga's path.
 * There is no default: a rule the lane would not know of cannot be added without saying.
 */
export type LaneTreatment = "judges" | { mirrors: string } | { stepsAside: string };

/**
 * One entry of the gateway's pipeline: a plugin under a name, how the prepared lane treats it,
 * and the entries it must follow, each with the guarantee that order keeps. yoga runs plugins'
 * hooks in list order, so where two plugins meet in one hook, the earlier one decides first.
 */
export interface PipelineEntry {
  name: string;
  /** Absent when a setting leaves the rule out (session mode off, GraphiQL off, …). */
  plugin: AnyPlugin | undefined;
  lane: LaneTreatment;
  /** Entries that must come before this one (when present), each with the reason. */
  after?: Readonly<Record<string, string>>;
}

/** What the prepared lane takes from the pipeline: the judges it runs, and who sends it aside. */
export interface LanePlan {
  /** The judges of the entries declared `"judges"`, in pipeline order. */
  judges: Judge[];
  /** The present entries that make the lane step aside, with why: none means the lane is open. */
  stepsAside: string[];
}

/** One stage's facts, as the running pipeline passes them on. */
export interface StageFacts {
  name: string;
  produces: readonly FactName[];
  reads: readonly FactName[];
  takes: readonly FactName[];
}

export class PipelineOrderError extends Error {}

/**
 * The plugins of a declared pipeline, in its order, once every stated `after` holds and every
 * fact a stage reads was produced by one earlier stage: an order that breaks one fails at
 * start-up, naming the guarantee or the fact, rather than answering wrongly.
 */
export function declaredPipeline(
  entries: readonly PipelineEntry[],
  /** What runs before the pipeline and hands facts on to it: the prepared lane. */
  before?: { name: string; facts: FactFlow },
): {
  plugins: AnyPlugin[];
  names: string[];
  facts: StageFacts[];
  lane: LanePlan;
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
    facts: factsInOrder(present, before),
    lane: lanePlan(present),
  };
}

/**
 * The lane's part of the pipeline, once every entry has said how the lane treats it: an entry
 * with hooks and no treatment, a judge not declared as one, or a declared judge without one
 * stops the gateway at start-up, naming the entry.
 */
function lanePlan(present: readonly PipelineEntry[]): LanePlan {
  const judges: Judge[] = [];
  const stepsAside: string[] = [];
  for (const entry of present) {
    const plugin = entry.plugin as Record<string, unknown>;
    const judge = plugin.judge;
    const lane = entry.lane as LaneTreatment | undefined;
    if (lane === undefined) {
      if (Object.values(plugin).some((value) => typeof value === "function")) {
        throw new PipelineOrderError(
          `pipeline: ${entry.name} has hooks and declares no lane treatment (judges, mirrors or stepsAside)`,
        );
      }
      continue;
    }
    if (lane === "judges") {
      if (typeof judge !== "function") {
        throw new PipelineOrderError(
          `pipeline: ${entry.name} is declared to judge and has no judge`,
        );
      }
      judges.push(judge as Judge);
      continue;
    }
    if (typeof judge === "function") {
      throw new PipelineOrderError(
        `pipeline: ${entry.name} has a judge the lane would not run: declare it "judges"`,
      );
    }
    if ("stepsAside" in lane) stepsAside.push(`${entry.name}: ${lane.stepsAside}`);
  }
  return { judges, stepsAside };
}

/** Each stage's facts, once each read follows the one stage that produces it. */
function factsInOrder(
  present: readonly PipelineEntry[],
  before: { name: string; facts: FactFlow } | undefined,
): StageFacts[] {
  const first = before ? [{ name: before.name, plugin: { facts: before.facts } }] : [];
  const stages = [...first, ...present].map((entry) => {
    const own = (entry.plugin as { facts?: FactFlow }).facts;
    return {
      name: entry.name,
      produces: own?.produces ?? [],
      reads: own?.reads ?? [],
      takes: own?.takes ?? [],
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
    // A fact taken when present still needs a producer before it: else it is never there.
    for (const fact of [...stage.reads, ...stage.takes]) {
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
  return stages.filter(
    (stage) => stage.produces.length > 0 || stage.reads.length > 0 || stage.takes.length > 0,
  );
}
