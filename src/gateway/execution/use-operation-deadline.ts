import type { Plugin } from "graphql-yoga";
import { OperationDeadlineExceeded } from "../../upstream/errors.ts";
import type { GatewayContext } from "./context.ts";

export interface OperationDeadlineOptions {
  /** Longest a query or mutation may run, retries included (OPERATION_DEADLINE_MS). */
  deadlineMs: number;
}

/**
 * Bounds a whole operation, however many dependent rounds of upstream calls it makes: at the
 * deadline every call still waiting is aborted (its field answers UPSTREAM_UNAVAILABLE with
 * `reason: "OPERATION_DEADLINE"`) and no retry starts. Subscriptions are not bounded: they last
 * as long as the call they follow.
 */
export function useOperationDeadline(options: OperationDeadlineOptions): Plugin {
  const { deadlineMs } = options;
  return {
    onExecute({ args }) {
      const { operation } = args.contextValue as unknown as GatewayContext;
      const stop = startOperationDeadline(operation, deadlineMs);
      return {
        onExecuteDone({ result }) {
          if (!(Symbol.asyncIterator in result)) {
            stop();
            return undefined;
          }
          // Deferred parts are still part of the operation: the deadline holds until the last.
          // A live query's stopped its clock at its first answer (endOperationDeadline): its
          // stream needs no envelop wrapper kept around it to stop it again.
          return clocks.has(operation) ? { onEnd: stop } : undefined;
        },
      };
    },
  };
}

/** Each running clock, by the operation it bounds: weak, gone with the operation. */
const clocks = new WeakMap<AbortController, () => void>();

/** Aborts the operation's calls at its deadline; the function returned stops the clock. */
export function startOperationDeadline(operation: AbortController, deadlineMs: number): () => void {
  let timer: NodeJS.Timeout | undefined = setTimeout(
    () => operation.abort(new OperationDeadlineExceeded(deadlineMs)),
    deadlineMs,
  );
  timer.unref();
  const stop = () => {
    clearTimeout(timer);
    // A stream keeps this function until it ends: the timer need not stay with it.
    timer = undefined;
    clocks.delete(operation);
  };
  clocks.set(operation, stop);
  return stop;
}

/**
 * Stops the operation's clock before its stream ends: a live query's operation is done with its
 * first result, and each later execution has a context, and a deadline, of its own.
 */
export function endOperationDeadline(operation: AbortController): void {
  clocks.get(operation)?.();
}
