import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFleetRedis, type FleetRedis } from "../../src/fleet/redis.ts";
import { waitUntil } from "../fleet/fleet-harness.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { WAIT_MS } from "../support/wait.ts";

// A channel's messages are read by its parse function: what does not parse is dropped and
// counted, never thrown, and the next good message is heard as ever.

let server: RedisServer;
let redis: FleetRedis;
beforeAll(async () => {
  server = await startRedisServer();
  redis = createFleetRedis({ url: server.url, prefix: "vgchan:" });
  await waitUntil(() => redis.available(), WAIT_MS, "Redis connection");
});
afterAll(async () => {
  await redis.close();
  await server.close();
});

/** A number in `{"n": …}`; JSON.parse throws on text that is no JSON at all. */
function parseNumber(text: string | Buffer): number | undefined {
  const value = JSON.parse(text.toString()) as { n?: unknown } | null;
  return typeof value?.n === "number" ? value.n : undefined;
}

function wellFormed(text: string): boolean {
  try {
    return parseNumber(text) !== undefined;
  } catch {
    return false;
  }
}

describe("a fleet channel", () => {
  it("delivers what parses, drops and counts the rest by kind, whatever is published", async () => {
    const heard: number[] = [];
    const channel = redis.channels.open({
      name: "vgchan:numbers",
      kind: "numbers",
      parse: parseNumber,
      deliver: (n) => heard.push(n),
    });
    // Another channel's messages, and a channel no one opened, count for no one here.
    const other = redis.channels.open({
      name: "vgchan:other",
      kind: "other",
      parse: () => undefined,
      deliver: () => undefined,
    });
    await waitUntil(() => channel.listening() && other.listening(), WAIT_MS, "subscribed");
    const publisher = redis.client;
    try {
      let end = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.string(),
              fc.json(),
              fc.integer().map((n) => JSON.stringify({ n })),
              fc.constantFrom("{", "null", "[]", '{"n":"1"}', "\u0000", '{"n":1e999}'),
            ),
            { maxLength: 20 },
          ),
          async (texts) => {
            heard.length = 0;
            const droppedBefore = redis.channels.dropped().get("numbers") ?? 0;
            for (const text of texts) await publisher.publish("vgchan:numbers", text);
            await publisher.publish("vgchan:nobody", '{"n":1}');
            // A last good message: once as many as expected are heard and it is last, every
            // one before it was read (a text may carry the same number, so count as well).
            end -= 1;
            await publisher.publish("vgchan:numbers", JSON.stringify({ n: end }));
            const good = texts.filter(wellFormed).map((text) => parseNumber(text) as number);
            await waitUntil(
              () => heard.length > good.length && heard.at(-1) === end,
              WAIT_MS,
              "the last message",
            );
            expect(heard).toEqual([...good, end]);
            const dropped = (redis.channels.dropped().get("numbers") ?? 0) - droppedBefore;
            expect(dropped).toBe(texts.length - good.length);
          },
        ),
        { numRuns: 30 },
      );
      expect(redis.channels.dropped().has("other")).toBe(false);
    } finally {
      channel.close();
      other.close();
    }
  });

  it("hands a channel each message's bytes as published, for it to decode what it reads", async () => {
    const heard: Buffer[] = [];
    const channel = redis.channels.open({
      name: "vgchan:bytes",
      kind: "bytes",
      parse: (bytes) => bytes,
      deliver: (bytes) => heard.push(bytes),
    });
    try {
      await waitUntil(() => channel.listening(), WAIT_MS, "subscribed");
      // Text with multi-byte characters, and bytes that are no UTF-8 at all, both unaltered.
      const sent = [Buffer.from('{"n":1}\n\u00e9\u{1f680}'), Buffer.from([0xff, 0x0a, 0xc3])];
      for (const bytes of sent) await redis.client.publish("vgchan:bytes", bytes);
      await waitUntil(() => heard.length === sent.length, WAIT_MS, "both messages");
      expect(heard.every((bytes) => Buffer.isBuffer(bytes))).toBe(true);
      expect(heard.map((bytes) => bytes.toString("hex"))).toEqual(
        sent.map((bytes) => bytes.toString("hex")),
      );
    } finally {
      channel.close();
    }
  });

  // Last: the refusal leaves the store degraded for a few seconds.
  it("tries a refused subscription again when the channel is opened again", async () => {
    const heard: number[] = [];
    const spec = {
      name: "vgchan:again",
      kind: "again",
      parse: parseNumber,
      deliver: (n: number) => heard.push(n),
    };
    // No channel allowed: the SUBSCRIBE is refused (NOPERM) while the connection stays up.
    await redis.client.call("ACL", "SETUSER", "default", "resetchannels");
    const refused = redis.channels.open(spec);
    expect(await refused.subscribed).toBe(false);
    await redis.client.call("ACL", "SETUSER", "default", "allchannels");
    const again = redis.channels.open(spec);
    try {
      expect(await again.subscribed).toBe(true);
      expect(again.listening()).toBe(true);
      await redis.client.publish("vgchan:again", '{"n":7}');
      await waitUntil(() => heard.length > 0, WAIT_MS, "the message");
      expect(heard).toEqual([7]);
    } finally {
      again.close();
    }
  });
});
