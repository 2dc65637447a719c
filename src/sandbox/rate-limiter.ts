/** The three headers the seed names, plus whether this request is over the limit. */
export interface RateLimitDecision {
  limited: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  reset: number;
  /** Whole seconds until then, at least 1 (for Retry-After). */
  retryAfter: number;
}

/**
 * Fixed windows aligned on multiples of the window length since the epoch, so every bucket's
 * window ends at the same, predictable second. Counters of past windows are dropped lazily.
 */
export class FixedWindowRateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #counters = new Map<string, { windowStart: number; count: number }>();

  constructor(limit: number, windowSeconds: number) {
    this.#limit = limit;
    this.#windowMs = windowSeconds * 1000;
  }

  /** Counts one request against `bucket` (an organization, or a remote address when unknown). */
  consume(bucket: string, nowMs: number): RateLimitDecision {
    const windowStart = Math.floor(nowMs / this.#windowMs) * this.#windowMs;
    let counter = this.#counters.get(bucket);
    if (counter === undefined || counter.windowStart !== windowStart) {
      counter = { windowStart, count: 0 };
      this.#counters.set(bucket, counter);
    }
    counter.count += 1;
    const resetMs = windowStart + this.#windowMs;
    return {
      limited: counter.count > this.#limit,
      limit: this.#limit,
      remaining: Math.max(0, this.#limit - counter.count),
      reset: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
    };
  }
}
