/**
 * Where one update of a watched read stands in the order of all its updates: `epoch` is the
 * life of the watch's counter (the store's clock when the counter was made, zero-padded, so two
 * epochs compare as strings by age) and `seq` counts within it. A counter that expired after a
 * quiet spell, or a store that restarted empty, starts a new epoch, which is newer than any before.
 */
export interface Mark {
  epoch: string;
  seq: number;
}

/**
 * The one ordering rule of every poller, on every instance: an update is delivered only when it
 * is newer than the last one delivered, so a follower never goes back and never repeats.
 */
export function isNewer(update: Mark, last: Mark | undefined): boolean {
  if (last === undefined) return true;
  if (update.epoch !== last.epoch) return update.epoch > last.epoch;
  return update.seq > last.seq;
}
