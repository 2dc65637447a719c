// Apart from verify-session.ts, so that the gateway can tell this error without loading jose,
// which only session mode needs.
/** A token that fails any check: the message says which, never the token. */
export class SessionRefused extends Error {
  override readonly name = "SessionRefused";
}
