/** The clock of one upstream call: its deadline over all attempts, and the wait between them. */

const MAX_BACKOFF_MS = 1_000;

/** One deadline per call: `timedOut` tells a timeout from the caller's own abort. */
export interface Deadline {
  timedOut: AbortSignal;
  combined: AbortSignal;
  expiresAt: number;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const timer = new AbortController();
  const expiresAt = Date.now() + timeoutMs;
  if (callerSignal === undefined) {
    const handle = setTimeout(() => timer.abort(), timeoutMs);
    return {
      timedOut: timer.signal,
      combined: timer.signal,
      expiresAt,
      dispose: () => clearTimeout(handle),
    };
  }
  // What AbortSignal.any([callerSignal, timer.signal]) would be, the caller's reason first, with
  // one listener removed at the end instead of a composite signal's weak references per call.
  const combined = new AbortController();
  const onCallerAbort = () => combined.abort(callerSignal.reason);
  const handle = setTimeout(() => {
    timer.abort();
    combined.abort(timer.signal.reason);
  }, timeoutMs);
  if (callerSignal.aborted) onCallerAbort();
  else callerSignal.addEventListener("abort", onCallerAbort, { once: true });
  return {
    timedOut: timer.signal,
    combined: combined.signal,
    expiresAt,
    dispose: () => {
      clearTimeout(handle);
      callerSignal.removeEventListener("abort", onCallerAbort);
    },
  };
}

/** Exponential with "equal jitter": never below half the step, so retries stay spread out. */
export function backoffDelay(retriesSoFar: number, baseMs: number): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retriesSoFar);
  return step / 2 + Math.random() * (step / 2);
}
