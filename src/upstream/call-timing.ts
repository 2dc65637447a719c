/** The clock of one upstream call: its deadline over all attempts, and the wait between them. */

import { abortError, type CallCancel, followAbort, unfollowAbort } from "./call-signal.ts";

const MAX_BACKOFF_MS = 1_000;

/** What an exchange follows of its call's end: aborted now, or told once when it is. */
export interface CallEnd {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** `onEnd` is called once when the call is aborted (not if it already is), until `unfollow`. */
  follow(onEnd: (reason: unknown) => void): void;
  unfollow(): void;
}

/**
 * One deadline per call, aborted by its timer or by the caller's signal, whichever comes first,
 * keeping its reason, as AbortSignal.any([callerSignal, timer]) would: `timedOut` tells a timeout
 * from the caller's own abort. A plain object with one follower (the attempt's exchange, or the
 * backoff's sleep) rather than an AbortController: a call makes no EventTarget of its own.
 */
export class Deadline implements CallEnd {
  aborted = false;
  reason: unknown;
  readonly timedOut: { aborted: boolean; reason: unknown } = { aborted: false, reason: undefined };
  readonly expiresAt: number;
  readonly #caller: CallCancel | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  #follower: ((reason: unknown) => void) | undefined;

  constructor(timeoutMs: number, callerSignal: CallCancel | undefined) {
    this.expiresAt = Date.now() + timeoutMs;
    this.#caller = callerSignal;
    this.#timer = setTimeout(this.#onTimeout, timeoutMs);
    if (callerSignal?.aborted) this.#end(callerSignal.reason);
    else if (callerSignal) followAbort(callerSignal, this.#onCallerAbort);
  }

  follow(onEnd: (reason: unknown) => void): void {
    this.#follower = onEnd;
  }

  unfollow(): void {
    this.#follower = undefined;
  }

  /** Resolves after `ms`, or rejects with the reason when the deadline ends first. */
  sleep(ms: number): Promise<void> {
    if (this.aborted) return Promise.reject(this.reason);
    return new Promise<void>((resolve, reject) => {
      const handle = setTimeout(() => {
        this.unfollow();
        resolve();
      }, ms);
      this.follow((reason) => {
        clearTimeout(handle);
        reject(reason);
      });
    });
  }

  dispose(): void {
    clearTimeout(this.#timer);
    if (this.#caller) unfollowAbort(this.#caller, this.#onCallerAbort);
    this.#follower = undefined;
  }

  readonly #onCallerAbort = () => this.#end(this.#caller?.reason);

  readonly #onTimeout = () => {
    if (this.aborted) return;
    // A reason of its own, as an AbortController's abort() without one gives: an AbortError.
    const reason = abortError();
    this.timedOut.aborted = true;
    this.timedOut.reason = reason;
    this.#end(reason);
  };

  #end(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const follower = this.#follower;
    this.#follower = undefined;
    follower?.(reason);
  }
}

export function startDeadline(timeoutMs: number, callerSignal: CallCancel | undefined): Deadline {
  return new Deadline(timeoutMs, callerSignal);
}

/** Exponential with "equal jitter": never below half the step, so retries stay spread out. */
export function backoffDelay(retriesSoFar: number, baseMs: number): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retriesSoFar);
  return step / 2 + Math.random() * (step / 2);
}
