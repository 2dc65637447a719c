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
