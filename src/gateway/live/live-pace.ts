import type { WindowBudget } from "../../fleet/window-budget.ts";
import type { RateLimit } from "../../upstream/rate-limit.ts";

/** Longest a 429 or a spent share pauses a key's pollers, whatever the reset time says. */
export const MAX_PAUSE_MS = 60_000;

export function windowOf(rateLimit: RateLimit): string {
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
   * Before a read: 0 to read now (it is counted), or how long to wait first: a 429's pause, or
   * the window's reset once its share is spent.
   */
  async admit(): Promise<number> {
    const now = this.#now();
    if (this.pausedUntilMs > now) return this.pausedUntilMs - now;
    const limit = this.rateLimit;
    if (!limit) return 0;
    const resetMs = limit.reset * 1000;
    if (resetMs <= now) return 0;
    const window = windowOf(limit);
    const count = await this.#budget.spend(window, resetMs + MAX_PAUSE_MS);
    if (count === undefined) return 0;
    this.#spent = { window, count };
    if (count <= this.allowance(limit)) return 0;
    return Math.min(resetMs - now + 1, MAX_PAUSE_MS);
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
