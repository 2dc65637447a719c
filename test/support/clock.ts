/**
 * A clock that moves only when a test moves it: a sandbox started with `now: clock.now` answers
 * durations, start and end times from it, so a test states the time instead of waiting for it.
 */
export interface ManualClock {
  readonly now: () => number;
  advance(ms: number): void;
}

export function manualClock(startMs = Date.now()): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}

/** Timers on a clock that moves only when a test moves it: `advance` runs the ones it passes. */
export interface ManualTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Moves the clock by `ms`, running each timer due on the way at its own time, in order. */
  advance(ms: number): void;
  /** Timers set and not yet run or cleared. */
  readonly pending: number;
}

export function manualTimers(startMs = 0): ManualTimers {
  let current = startMs;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => current,
    setTimeout(run, ms) {
      next += 1;
      timers.set(next, { at: current + Math.max(0, ms), run });
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const until = current + ms;
      for (;;) {
        const due = [...timers].filter(([, timer]) => timer.at <= until);
        if (due.length === 0) break;
        const [id, timer] = due.reduce((a, b) =>
          b[1].at < a[1].at || (b[1].at === a[1].at && b[0] < a[0]) ? b : a,
        );
        timers.delete(id);
        current = Math.max(current, timer.at);
        timer.run();
      }
      current = until;
    },
    get pending() {
      return timers.size;
    },
  };
}
