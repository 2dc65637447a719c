/**
 * Closes what has stayed idle for `idleMs` (a graphql-ws socket without a subscription, a
 * single-connection SSE stream without an operation): checked on an interval, so an item goes
 * between `idleMs` and `idleMs` + one interval after it was last busy or watched.
 */
export class IdleSweeper<T> {
  /** Each item watched, with when it was first seen idle (undefined: busy at the last sweep). */
  readonly #watched = new Map<T, number | undefined>();
  readonly #rule: { busy(item: T): boolean; close(item: T): void };
  #idleMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(idleMs: number, rule: { busy(item: T): boolean; close(item: T): void }) {
    this.#rule = rule;
    this.#idleMs = idleMs;
    this.restart(idleMs);
  }

  /** Follows an item, idle from now until the next sweep finds it busy. */
  watch(item: T): void {
    this.#watched.set(item, Date.now());
  }

  forget(item: T): void {
    this.#watched.delete(item);
  }

  /** Sweeps with another bound from now on. */
  restart(idleMs: number): void {
    this.stop();
    this.#idleMs = idleMs;
    this.#timer = setInterval(() => this.#sweep(), Math.max(50, Math.min(1000, idleMs >> 2)));
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [item, since] of this.#watched) {
      if (this.#rule.busy(item)) this.#watched.set(item, undefined);
      else if (since === undefined) this.#watched.set(item, now);
      else if (now - since >= this.#idleMs) {
        this.#watched.delete(item);
        this.#rule.close(item);
      }
    }
  }
}
