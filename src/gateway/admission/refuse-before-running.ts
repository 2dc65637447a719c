import type { Plugin } from "graphql-yoga";
import type { Judge } from "../assembly/pipeline.ts";
import type { FactFlow } from "../execution/operation-facts.ts";

export type { Judge };

/**
 * A plugin of the refuse-before-running shape: its judge is readable (the prepared lane runs it),
 * and so are the facts it produces and reads (the pipeline checks their order at start-up).
 */
export type JudgingPlugin = Plugin & { readonly judge: Judge; readonly facts?: FactFlow };

/**
 * The plugin shape every pre-execution check shares: the same judge for queries, mutations and
 * subscriptions, its refusal answered instead of running (so nothing goes upstream). The judge is
 * kept on the plugin: the prepared lane (lane/prepared-lane.ts) runs every judge, in yoga's
 * order, from the same plugins.
 */
export function refuseBeforeRunning(judge: Judge, facts?: FactFlow): JudgingPlugin {
  return {
    judge,
    ...(facts ? { facts } : {}),
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = judge(args);
      if (refusal) setResultAndStopExecution(refusal);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = judge(args);
      if (refusal) setResultAndStopExecution(refusal);
    },
  };
}
