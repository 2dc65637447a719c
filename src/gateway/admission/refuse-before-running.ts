import type { ExecutionArgs, ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";

/** A check of an operation before it runs: its refusal, or undefined to let it run. */
export type Judge = (args: ExecutionArgs) => ExecutionResult | undefined;

/** A plugin of the refuse-before-running shape: its judge is readable (the prepared lane runs it). */
export type JudgingPlugin = Plugin & { readonly judge: Judge };

/**
 * The plugin shape every pre-execution check shares: the same judge for queries, mutations and
 * subscriptions, its refusal answered instead of running (so nothing goes upstream). The judge is
 * kept on the plugin: the prepared lane (execution/prepared-lane.ts) runs every judge, in yoga's
 * order, from the same plugins.
 */
export function refuseBeforeRunning(judge: Judge): JudgingPlugin {
  return {
    judge,
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
