/**
 * A live query's result as the other stages see it (live/latest-results.ts): its operation has
 * executed by the time it is returned, each later execution having a context and a deadline of
 * its own, and it says itself when it ends. So a plugin that must hear of its end registers here
 * rather than have envelop wrap it in one more iterator, kept for as long as it is open.
 */
export const LIVE_STREAM = Symbol("voicegraph.liveStream");

export interface LiveStream {
  /** Runs `run` once the stream has ended: at once if it has already. */
  [LIVE_STREAM](run: () => void): void;
}

/** The result as a live query's stream, or undefined for any other. */
export function asLiveStream(result: unknown): LiveStream | undefined {
  return typeof result === "object" &&
    result !== null &&
    typeof (result as Partial<LiveStream>)[LIVE_STREAM] === "function"
    ? (result as LiveStream)
    : undefined;
}
