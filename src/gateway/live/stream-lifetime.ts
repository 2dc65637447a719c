import { gatewayError } from "../../errors.ts";

/** Longest a timer may wait in Node (about 24.8 days): a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a long-lived operation ends with when the server drains. */
export function shuttingDown(): Error {
  return gatewayError(
    "SHUTTING_DOWN",
    "The server is shutting down; run this operation again to keep following it.",
  );
}

/** What it ends with when the session that opened it expires. */
export function sessionExpired(): Error {
  return gatewayError(
    "UNAUTHENTICATED",
    "The session that opened this operation has expired: sign in again and run it again.",
  );
}

/** Shared by every stream without a session: an open one keeps its cancellation. */
const nothingToCancel = () => undefined;

/**
 * Ends a long-lived operation (a subscription or a live query, on any transport) at its
 * session's expiry, as a plain request with that token would be refused from then on.
 * Returns the cancellation.
 */
export function endAtExpiry(
  session: { expiresAt: number } | undefined,
  end: (error: Error) => void,
  now: () => number = Date.now,
): () => void {
  if (!session) return nothingToCancel;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = session.expiresAt - now();
    if (left <= 0) {
      end(sessionExpired());
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}
