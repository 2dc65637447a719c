/**
 * The abort signal of an operation's calls (execution/context.ts), or of a call shared by several
 * waiters (sharing.ts): what an AbortController's signal is to the upstream layers (`aborted`,
 * `reason`, told once when it aborts) without an EventTarget, whose construction and listeners
 * (an AbortSignal's keep weak references for composite signals) cost each call more than the
 * rest of its bookkeeping.
 */
export class CallSignal {
  aborted = false;
  reason: unknown = undefined;
  #followers: Set<() => void> | undefined;

  /** Aborts with `reason`, or an AbortError as AbortController's abort() gives; once. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? abortError() : reason;
    const followers = this.#followers;
    this.#followers = undefined;
    if (followers) for (const follower of followers) follower();
  }

  follow(listener: () => void): void {
    this.#followers ??= new Set();
    this.#followers.add(listener);
  }

  unfollow(listener: () => void): void {
    this.#followers?.delete(listener);
  }
}

/** Whatever ends a call early: the operation's AbortSignal, or a shared call's own. */
export type CallCancel = AbortSignal | CallSignal;

/** Calls `listener` once when `signal` aborts (not if it already has). */
export function followAbort(signal: CallCancel, listener: () => void): void {
  if (signal instanceof CallSignal) signal.follow(listener);
  else signal.addEventListener("abort", listener, { once: true });
}

export function unfollowAbort(signal: CallCancel, listener: () => void): void {
  if (signal instanceof CallSignal) signal.unfollow(listener);
  else signal.removeEventListener("abort", listener);
}

/** The reason AbortController's abort() gives when it is given none. */
export function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}
