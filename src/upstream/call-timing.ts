/** The clock of one upstream call: its deadline over all attempts, and the wait between them. */

const MAX_BACKOFF_MS = 1_000;

/** One deadline per call: `timedOut` tells a timeout from the caller's own abort. */
export interface Deadline {
  timedOut: Pick<AbortSignal, "aborted" | "reason">;
  combined: AbortSignal;
  expiresAt: number;
  dispose(): void;
}

/**
 * What AbortSignal.any([callerSignal, timer]) would be, the caller's reason first, with one
 * controller per call and one listener removed at the end, instead of a composite signal's weak
 * references, or a second controller only to say that the timer fired.
 */
export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const combined = new AbortController();
  const expiresAt = Date.now() + timeoutMs;
  const timedOut: { aborted: boolean; reason: unknown } = { aborted: false, reason: undefined };
  const onCallerAbort = () => combined.abort(callerSignal?.reason);
  const handle = setTimeout(() => {
    if (combined.signal.aborted) return;
    // A reason of its own, as an AbortController's abort() without one gives: an AbortError.
    combined.abort();
    timedOut.aborted = true;
    timedOut.reason = combined.signal.reason;
  }, timeoutMs);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  return {
    timedOut,
    combined: combined.signal,
    expiresAt,
    dispose: () => {
      clearTimeout(handle);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

/** Exponential with "equal jitter": never below half the step, so retries stay spread out. */
export function backoffDelay(retriesSoFar: number, baseMs: number): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retriesSoFar);
  return step / 2 + Math.random() * (step / 2);
}
