/**
 * The fleet's write version (`<prefix>wver` in Redis, kept by fleet/write-version.ts): a random
 * token every accepted write (any instance, any resource) replaces before it is answered. Two
 * reads of it that are equal mean no write was answered between them (tokens never repeat, and
 * a missing one is made anew, so a Redis that came back empty never matches an old one). A call
 * in flight records the instance's view of it (a value it held at some instant before the call
 * started, read for free); a read joins that call only if the token read when it joins still
 * equals it. A bump that cannot reach Redis is kept and sent again once the link is back.
 */
export interface FleetWriteVersion {
  /** The last token this instance read, held at some instant before now; undefined: none yet. */
  view(): string | undefined;
  /**
   * The token now (one GET, bounded by the command timeout, sent after this call: looks asked
   * for in one turn of the event loop share it); undefined when Redis cannot tell within it.
   * Updates the view.
   */
  current(): Promise<string | undefined>;
  /** An accepted write: a new token, before the write is answered (kept if Redis is away). */
  bump(): Promise<void>;
}
