import type { WindowBudget } from "../../fleet/window-budget.ts";
import type { RateLimit } from "../../upstream/rate-limit.ts";

/** Longest a 429 or a spent share pauses a key's pollers, whatever the reset time says. */
export const MAX_PAUSE_MS = 60_000;

export function windowOf(rateLimit: Pick<RateLimit, "limit" | "reset">): string {
  return `${rateLimit.limit}:${rateLimit.reset}`;
}

/**
 * What one key's pollers know of its rate limit (the newest figures, a 429's pause) and the
 * one pacing rule: together, the pollers of a window spend at most `share` of its advertised
 * limit, counted from the window's start; what is left is spread over the time left.
 */
export class KeyPace {
  pollers = 0;
  rateLimit: RateLimit | undefined;
  pausedUntilMs = 0;
  /** The window's count as last spent, for spreading what is left. */
  #spent: { window: string; count: number } | undefined;
  /** The window the read under way was counted in. */
  #reserved: string | undefined;
  /** A window's length in seconds, once two successive windows showed it. */
  #windowS: number | undefined;
  readonly #share: number;
  readonly #intervalMs: number;
  readonly #budget: WindowBudget;
  readonly #now: () => number;

  constructor(options: {
    share: number;
    intervalMs: number;
    budget: WindowBudget;
    now: () => number;
  }) {
    this.#share = options.share;
    this.#intervalMs = options.intervalMs;
    this.#budget = options.budget;
    this.#now = options.now;
  }

  /** The reads a window's pollers may make in all. */
  allowance(rateLimit: RateLimit): number {
    return Math.floor(rateLimit.limit * this.#share);
  }

  /**
   * Before a read: 0 to read now, or how long to wait first (a 429's pause, or the end of a
   * window whose share is spent). The read is counted in the window it will most likely land
   * in: the one known, or the next one once the known one has ended and its length is known.
   */
  async admit(): Promise<number> {
    const now = this.#now();
    if (this.pausedUntilMs > now) return this.pausedUntilMs - now;
    const limit = this.rateLimit;
    this.#reserved = undefined;
    if (!limit) return 0;
    const resetS = this.#currentReset(limit.reset, now);
    // A window that has ended and whose length is not known yet: this read finds the next one,
    // and is counted there when its answer names it.
    if (resetS === undefined) return 0;
    const window = windowOf({ limit: limit.limit, reset: resetS });
    const count = await this.#budget.spend(window, resetS * 1000 + MAX_PAUSE_MS);
    if (count === undefined) return 0;
    this.#spent = { window, count };
    if (count <= this.allowance(limit)) {
      this.#reserved = window;
      return 0;
    }
    return Math.min(resetS * 1000 - now + 1, MAX_PAUSE_MS);
  }

  /**
   * A read's answer named its window (`X-RateLimit-*`): it is learned, and the read is counted
   * there if it was counted elsewhere (it crossed a window's end) or not at all.
   */
  async landed(rateLimit: RateLimit | undefined): Promise<void> {
    const reserved = this.#reserved;
    this.#reserved = undefined;
    if (!rateLimit) return;
    const before = this.rateLimit;
    if (before && rateLimit.reset > before.reset) this.#windowS = rateLimit.reset - before.reset;
    this.rateLimit = rateLimit;
    const window = windowOf(rateLimit);
    if (window === reserved) return;
    const count = await this.#budget.spend(window, rateLimit.reset * 1000 + MAX_PAUSE_MS);
    if (count !== undefined) this.#spent = { window, count };
  }

  /** The end (Unix seconds) of the window `now` falls in, as far as the last one tells. */
  #currentReset(resetS: number, now: number): number | undefined {
    if (resetS * 1000 > now) return resetS;
    if (this.#windowS === undefined) return undefined;
    const behind = Math.floor((now / 1000 - resetS) / this.#windowS) + 1;
    return resetS + behind * this.#windowS;
  }

  /** The wait before a poller's next read: the interval, stretched to spread what is left. */
  delayMs(): number {
    const now = this.#now();
    if (this.pausedUntilMs > now) return this.pausedUntilMs - now;
    const limit = this.rateLimit;
    if (!limit) return this.#intervalMs;
    const untilReset = limit.reset * 1000 - now;
    if (untilReset <= 0) return this.#intervalMs;
    const spent = this.#spent?.window === windowOf(limit) ? this.#spent.count : 0;
    const left = this.allowance(limit) - spent;
    if (left < this.pollers) return Math.min(untilReset + 1, MAX_PAUSE_MS);
    const spread = Math.ceil((this.pollers * untilReset) / left);
    return Math.max(this.#intervalMs, Math.min(spread, MAX_PAUSE_MS));
  }

  pause(waitMs: number): void {
    const bounded = Math.min(Math.max(1000, waitMs), MAX_PAUSE_MS);
    this.pausedUntilMs = Math.max(this.pausedUntilMs, this.#now() + bounded);
  }
}
