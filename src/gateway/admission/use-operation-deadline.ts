import type { Plugin } from "graphql-yoga";
import type { CallSignal } from "../../upstream/call-signal.ts";
import { OperationDeadlineExceeded } from "../../upstream/errors.ts";
import type { ExecuteHooks, GatewayContext } from "../execution/context.ts";
import { asLiveStream } from "../shared/live-stream.ts";

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
export function useOperationDeadline(options: OperationDeadlineOptions): Plugin<GatewayContext> {
  const { deadlineMs } = options;
  // One hooks object for every operation, its clock kept on its context: envelop keeps what
  // onExecute returns for as long as a stream is open.
  const hooks: ExecuteHooks = {
    onExecuteDone({ args, result }) {
      const context = args.contextValue as GatewayContext;
      // Deferred parts are still part of the operation: the deadline holds until the last. A
      // live query's operation is done with its first result: the clock stops now, with no
      // wrapper kept around its stream for as long as it is open.
      if (Symbol.asyncIterator in result && !asLiveStream(result)) {
        return { onEnd: () => stopDeadline(context) };
      }
      stopDeadline(context);
      return undefined;
    },
  };
  return {
    onExecute({ args }) {
      const context = args.contextValue as unknown as GatewayContext;
      context.stopDeadline = startOperationDeadline(context.operation, deadlineMs);
      return hooks;
    },
  };
}

function stopDeadline(context: GatewayContext): void {
  context.stopDeadline?.();
  context.stopDeadline = undefined;
}

/**
 * Aborts the operation's calls at its deadline; the function returned stops the clock. The one
 * timer of every path: yoga's (above) and the prepared lane's.
 */
export function startOperationDeadline(operation: CallSignal, deadlineMs: number): () => void {
  // The operation is the timer's argument, not a variable of this scope: a live query's stream
  // keeps the function returned, which then holds neither the timer nor the operation.
  let timer: NodeJS.Timeout | undefined = setTimeout(
    abortAtDeadline,
    deadlineMs,
    operation,
    deadlineMs,
  );
  timer.unref();
  return () => {
    clearTimeout(timer);
    timer = undefined;
  };
}

function abortAtDeadline(operation: CallSignal, deadlineMs: number): void {
  operation.abort(new OperationDeadlineExceeded(deadlineMs));
}
