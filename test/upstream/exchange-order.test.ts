import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { Deadline } from "../../src/upstream/call-timing.ts";
import { exchange, UnwrittenCalls } from "../../src/upstream/exchange.ts";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * A loopback upstream that holds every request to `/held` until `together.count` of them are
 * held, then answers them all in one turn (their answers reach the client in one poll phase),
 * and answers anything else at once.
 */
async function upstreamAnsweringTogether(together: { count: number }) {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url !== "/held") {
        res.end(req.url);
        return;
      }
      held.push(res);
      if (held.length < together.count) return;
      for (const waiting of held.splice(0)) waiting.end("held");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Each pool's calls not yet written, as a client keeps them for its own pool. */
const unwrittenOf = new WeakMap<Pool, UnwrittenCalls>();
function unwritten(pool: Pool): UnwrittenCalls {
  let calls = unwrittenOf.get(pool);
  if (calls === undefined) {
    calls = new UnwrittenCalls();
    unwrittenOf.set(pool, calls);
  }
  return calls;
}

/** One exchange on `pool`, its deadline disposed after; `read` sees the answer's text. */
function call(
  pool: Pool,
  path: string,
  read: (text: string) => void = () => undefined,
): Promise<string> {
  const deadline = new Deadline(10_000, undefined);
  return exchange(
    pool,
    unwritten(pool),
    { method: "GET", path, headers: {} },
    deadline,
    (answer) => {
      read(answer.text);
      return answer.text;
    },
    (error) => {
      throw error;
    },
  ).finally(() => deadline.dispose());
}

describe("an exchange's answer", () => {
  it("is read after the calls made before it are written, not before", async () => {
    const together = { count: 3 };
    const origin = await upstreamAnsweringTogether(together);
    const pool = new Pool(origin, { connections: 3 });
    closing.push(() => pool.close());
    const events: string[] = [];
    // Three kept-alive connections, each used once: a call on one is written a turn after it is made.
    await Promise.all([call(pool, "/held"), call(pool, "/held"), call(pool, "/held")]);
    together.count = 2;

    const onHeaders = (message: unknown) => {
      const { request } = message as { request: { path: string } };
      if (request.path === "/later") events.push("later written");
    };
    subscribe("undici:client:sendHeaders", onHeaders);
    closing.push(async () => {
      unsubscribe("undici:client:sendHeaders", onHeaders);
    });
    let later: Promise<string> | undefined;
    // Two answers in one poll phase: the first one read makes a call, as a page's answer makes
    // its items' calls; the second is read only once that call is written.
    const readings = [1, 2].map(() =>
      call(pool, "/held", () => {
        events.push(later === undefined ? "first read" : "second read");
        later ??= call(pool, "/later");
      }),
    );
    await Promise.all(readings);
    expect(await later).toBe("/later");
    expect(events).toEqual(["first read", "later written", "second read"]);
  });

  it("is not held back by calls that ended without being written", async () => {
    // A call refused at dispatch, one to a port nothing listens on, and two on a pool destroyed
    // under them (the second still waiting for the one connection): each must stop counting as
    // waiting to be written, or every answer after them would be read a phase late.
    const silent = await upstreamAnsweringTogether({ count: Number.POSITIVE_INFINITY });
    const silentPool = new Pool(silent, { connections: 1 });
    await expect(call(silentPool, "no-leading-slash")).rejects.toThrow();
    const nobody = await upstreamAnsweringTogether({ count: 1 });
    const port = new URL(nobody).port;
    await closing.pop()?.();
    const nobodyPool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
    closing.push(() => nobodyPool.close());
    await expect(call(nobodyPool, "/held")).rejects.toThrow();
    const written = call(silentPool, "/held");
    const queued = call(silentPool, "/held");
    await silentPool.destroy();
    await expect(written).rejects.toThrow();
    await expect(queued).rejects.toThrow();

    expect(unwritten(silentPool).count).toBe(0);
    expect(unwritten(nobodyPool).count).toBe(0);
  });
});
