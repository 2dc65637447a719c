import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { CallEnd } from "./call-timing.ts";

/** One HTTP exchange, its answer read whole. */
export interface Exchanged {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Calls handed to one client's dispatcher whose request has not been written yet. Undici writes a
 * request on a reused connection in the check phase after it is made (it first checks the idle
 * socket), so an answer read in the same poll phase is interpreted after those writes: the work
 * an answer sets off (a page's items, the fields waiting on it) would otherwise hold them back.
 * One per client, so no gateway's answers wait for another's writes.
 */
export class UnwrittenCalls {
  count = 0;
}

/**
 * Sends one request and reads its answer whole into a string, straight from undici's dispatch
 * handler: one promise per call, where `request()` and `body.text()` make an AsyncResource, a
 * body stream and a consume promise for a body that is read whole anyway. The call's end is
 * followed as undici's `request()` follows a signal: an abort while the call waits for a
 * connection takes effect when it gets one, and one while it runs aborts it. The pool's
 * `maxResponseSize`, headers and body timeouts hold as for any dispatch.
 */
export function exchange<O>(
  dispatcher: Dispatcher,
  unwritten: UnwrittenCalls,
  options: Dispatcher.DispatchOptions,
  end: CallEnd,
  /** The answer read whole, as the call's outcome; what it throws rejects the promise. */
  read: (answer: Exchanged) => O,
  /** A failure of the exchange (transport, abort, timeout), as the call's outcome. */
  failed: (error: unknown) => O,
): Promise<O> {
  return new Promise<O>((resolve, reject) => {
    // The outcome straight from the handler: no promise of the raw answer in between.
    const settle = (outcome: () => O) => {
      done();
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    };
    let controller: Dispatcher.DispatchController | undefined;
    let reason: Error | undefined;
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let length = 0;
    const onAbort = (why: unknown) => {
      reason = why instanceof Error ? why : new Error(String(why));
      controller?.abort(reason);
    };
    let waiting = true;
    const written = () => {
      if (waiting) {
        waiting = false;
        unwritten.count -= 1;
      }
    };
    const done = () => {
      written();
      end.unfollow();
    };
    if (end.aborted) onAbort(end.reason);
    else end.follow(onAbort);
    unwritten.count += 1;
    try {
      dispatcher.dispatch(options, {
        onRequestStart(started) {
          written();
          controller = started;
          if (reason !== undefined) started.abort(reason);
        },
        onResponseStart(_controller, status, responseHeaders) {
          // An informational answer (1xx) is followed by the real one.
          if (status < 200) return;
          statusCode = status;
          headers = responseHeaders;
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
          length += chunk.length;
        },
        onResponseEnd() {
          const answer = () => read({ statusCode, headers, text: decode(chunks, length) });
          if (unwritten.count === 0) settle(answer);
          else setImmediate(settle, answer);
        },
        onResponseError(_controller, error) {
          settle(() => failed(error));
        },
      });
    } catch (error) {
      settle(() => failed(error));
    }
  });
}

/** UTF-8 without a leading byte-order mark, as undici's `body.text()` reads it. */
function decode(chunks: Buffer[], length: number): string {
  if (length === 0) return "";
  const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const bom = body.length > 2 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString("utf8", bom ? 3 : 0);
}
