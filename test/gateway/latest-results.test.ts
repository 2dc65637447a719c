import { describe, expect, it } from "vitest";
import { LatestResults } from "../../src/gateway/live/latest-results.ts";
import { asLiveStream, LIVE_STREAM } from "../../src/gateway/shared/live-stream.ts";

// A live query's stream: the newest unread result only, what is unread read before the end, the
// error it ended with thrown once, and its cleanup run once however it ends.

describe("a live query's stream of latest results", () => {
  it("keeps only the newest unread result, and hands a waiting reader the next at once", async () => {
    const stream = new LatestResults<number>();
    stream.push(1);
    stream.push(2);
    expect(await stream.next()).toEqual({ value: 2, done: false });
    const waiting = stream.next();
    stream.push(3);
    stream.push(4);
    expect(await waiting).toEqual({ value: 3, done: false });
    expect(await stream.next()).toEqual({ value: 4, done: false });
  });

  it("ends after what is unread, then throws the error it ended with once", async () => {
    const stream = new LatestResults<number>();
    const ended: string[] = [];
    stream.whenEnded(() => ended.push("cleanup"));
    // As the metrics and the deadline hear of its end: through the live stream's own hook.
    asLiveStream(stream)?.[LIVE_STREAM](() => ended.push("timer"));
    stream.push(1);
    stream.end(new Error("gone"));
    stream.push(2);
    expect(ended).toEqual(["cleanup", "timer"]);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    await expect(stream.next()).rejects.toThrow("gone");
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    stream.end();
    expect(ended).toEqual(["cleanup", "timer"]);
  });

  it("runs a subclass's own cleanup once, before the others, however it is ended", async () => {
    const ended: string[] = [];
    class Followed extends LatestResults<number> {
      protected override finished(): void {
        ended.push("own");
      }
    }
    const stream = new Followed();
    stream.whenEnded(() => ended.push("cleanup"));
    await stream.return();
    stream.end();
    // As the metrics register once the first result is out: after an end, it runs at once.
    stream.whenEnded(() => ended.push("timer"));
    expect(ended).toEqual(["own", "cleanup", "timer"]);
  });

  it("is told from any other async result as a live stream", () => {
    expect(asLiveStream(new LatestResults<number>())).toBeDefined();
    expect(asLiveStream((async function* () {})())).toBeUndefined();
    expect(asLiveStream(null)).toBeUndefined();
  });

  it("ends a waiting reader, and runs a cleanup registered after the end at once", async () => {
    const stream = new LatestResults<number>();
    const waiting = stream.next();
    stream.end();
    expect(await waiting).toEqual({ value: undefined, done: true });
    let cleaned = false;
    stream.whenEnded(() => {
      cleaned = true;
    });
    expect(cleaned).toBe(true);
  });

  it("ends when its reader returns, dropping what was unread", async () => {
    const stream = new LatestResults<number>();
    let cleaned = 0;
    stream.whenEnded(() => {
      cleaned += 1;
    });
    stream.push(1);
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(cleaned).toBe(1);
    const results: number[] = [];
    for await (const value of stream) results.push(value);
    expect(results).toEqual([]);
  });
});
