/** The clock and timers a throttle reads: the process's own, or a test's that moves on demand. */
export interface LiveTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_TIMERS: LiveTimers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface Throttle<T> {
  /** A newer result: delivered now if the interval allows, else held, replacing any held one. */
  offer(value: T): void;
  /** The subscriber is gone: whatever is held is dropped, no timer is left behind. */
  stop(): void;
}

/**
 * `@live(throttle: N)`: at most one delivery per `intervalMs`, counted from the last one (the
 * first result included). A result offered sooner is held; a newer one replaces it (the latest
 * answer wins), and the held one is delivered as soon as the interval has passed, so the last
 * change is never lost. Without an interval every result is delivered as it comes. `deliver`
 * says whether it sent the value: one it dropped (no change) does not start a new interval.
 */
export function throttle<T>(
  deliver: (value: T) => boolean,
  intervalMs: number | null,
  timers: LiveTimers = SYSTEM_TIMERS,
): Throttle<T> {
  if (intervalMs === null || intervalMs <= 0) return unthrottled(deliver);
  let lastAt = timers.now();
  let held: { value: T } | undefined;
  let timer: unknown;
  let stopped = false;
  const flush = () => {
    timer = undefined;
    if (stopped || held === undefined) return;
    const { value } = held;
    held = undefined;
    const at = timers.now();
    if (deliver(value)) lastAt = at;
  };
  return {
    offer(value) {
      if (stopped) return;
      const wait = lastAt + intervalMs - timers.now();
      if (timer === undefined && wait <= 0) {
        const at = timers.now();
        if (deliver(value)) lastAt = at;
        return;
      }
      held = { value };
      timer ??= timers.setTimeout(flush, Math.max(0, wait));
    },
    stop() {
      stopped = true;
      held = undefined;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Every result delivered as it comes. Apart from `throttle`: a closure made in its scope would
 * keep that scope's timer state, and an open live query keeps its throttle.
 */
function unthrottled<T>(deliver: (value: T) => boolean): Throttle<T> {
  return { offer: (value) => void deliver(value), stop: nothingToStop };
}

const nothingToStop = () => undefined;
