import { LIVE_STREAM, type LiveStream } from "../shared/live-stream.ts";

/**
 * A live query's stream: results pushed by the gateway, read by the transport, of which only the
 * newest unread one matters: a slow reader gets the latest when it asks again, never a backlog.
 * It ends when the gateway ends it (after what is unread, then with its error if it has one) or
 * when the reader returns. What graphql-yoga's Repeater with a one-place sliding buffer did, in
 * one small object: every open live query holds one for as long as it is open.
 */
export class LatestResults<T> implements AsyncIterableIterator<T>, LiveStream {
  #unread: { value: T } | undefined;
  #reader: { resolve(step: IteratorResult<T>): void; reject(error: unknown): void } | undefined;
  #ended = false;
  /** What the stream ended with, thrown once to the reader after what was unread. */
  #error: { error: unknown } | undefined;
  #onEnd: (() => void) | undefined;

  /** The newest result: handed to a waiting reader, or kept in place of the unread one. */
  push(value: T): void {
    if (this.#ended) return;
    const reader = this.#reader;
    if (reader === undefined) {
      this.#unread = { value };
      return;
    }
    this.#reader = undefined;
    reader.resolve({ value, done: false });
  }

  /** Ends the stream: what is unread is still read, then the error (if any) is thrown. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) this.#error = { error };
    const reader = this.#reader;
    this.#reader = undefined;
    if (reader) this.#settle(reader);
    this.finished();
    this.#runOnEnd();
  }

  /** Runs `cleanup` once the stream has ended (after any given before): at once if it has already. */
  whenEnded(cleanup: () => void): void {
    const before = this.#onEnd;
    this.#onEnd = before
      ? () => {
          before();
          cleanup();
        }
      : cleanup;
    if (this.#ended) this.#runOnEnd();
  }

  [LIVE_STREAM](run: () => void): void {
    this.whenEnded(run);
  }

  next(): Promise<IteratorResult<T>> {
    const unread = this.#unread;
    if (unread !== undefined) {
      this.#unread = undefined;
      return Promise.resolve({ value: unread.value, done: false });
    }
    return new Promise((resolve, reject) => {
      if (this.#ended) this.#settle({ resolve, reject });
      else this.#reader = { resolve, reject };
    });
  }

  /** The reader is done: the stream ends, and what was unread is dropped. */
  return(): Promise<IteratorResult<T>> {
    this.#unread = undefined;
    this.#error = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    this.#unread = undefined;
    this.#error = undefined;
    this.end();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #settle(reader: { resolve(step: IteratorResult<T>): void; reject(error: unknown): void }): void {
    const failure = this.#error;
    this.#error = undefined;
    if (failure) reader.reject(failure.error);
    else reader.resolve({ value: undefined, done: true });
  }

  /** A subclass's own cleanup, run once when the stream ends, before what whenEnded added. */
  protected finished(): void {}

  #runOnEnd(): void {
    const cleanup = this.#onEnd;
    this.#onEnd = undefined;
    cleanup?.();
  }
}
