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
  const handle = setTimeout(() => timer.abort(), timeoutMs);
  return {
    timedOut: timer.signal,
    combined: callerSignal ? AbortSignal.any([callerSignal, timer.signal]) : timer.signal,
    expiresAt: Date.now() + timeoutMs,
    dispose: () => clearTimeout(handle),
  };
}

/** Exponential with "equal jitter": never below half the step, so retries stay spread out. */
export function backoffDelay(retriesSoFar: number, baseMs: number): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retriesSoFar);
  return step / 2 + Math.random() * (step / 2);
}
