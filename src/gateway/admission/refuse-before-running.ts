import type { ExecutionArgs, ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";

/** A check of an operation before it runs: its refusal, or undefined to let it run. */
export type Judge = (args: ExecutionArgs) => ExecutionResult | undefined;

/**
 * The plugin shape every pre-execution check shares: the same judge for queries, mutations and
 * subscriptions, its refusal answered instead of running (so nothing goes upstream).
 */
export function refuseBeforeRunning(judge: Judge): Plugin {
  return {
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
