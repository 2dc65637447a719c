import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import {
  readConversation,
  readConversationList,
  upstreamOriginal,
} from "../../src/upstream/conversation-reading.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { createRestApi, type RestApi } from "../../src/upstream/rest-api.ts";

// The gateway's reading of operations 7 and 8 over real HTTP, against both sandbox dialects:
// whichever way the upstream refers to agents and counts durations, the schema gets one DTO.
const call = { authorization: `Bearer ${DEMO_KEYS.acme}`, keyHash: createKeyHasher() };
// One frozen clock for both sandboxes: durations are read from it, and two clocks a moment
// apart would disagree across a second's boundary.
const frozenMs = Date.now();
const still = { callDurationMs: 3_600_000, callIntervalMs: 3_600_000, now: () => frozenMs };

let standard: Sandbox;
let alternate: Sandbox;
let clients: UpstreamClient[] = [];
let standardApi: RestApi;
let alternateApi: RestApi;
beforeAll(async () => {
  standard = await startSandbox(still);
  alternate = await startSandbox({ ...still, dialect: "alternate" });
  const standardClient = createUpstreamClient({ baseUrl: standard.url });
  const alternateClient = createUpstreamClient({
    baseUrl: alternate.url,
    reading: { searchParam: "q", durationUnit: "milliseconds" },
  });
  clients = [standardClient, alternateClient];
  standardApi = createRestApi(standardClient, call);
  alternateApi = createRestApi(alternateClient, call);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await standard.close();
  await alternate.close();
});

describe("reading conversations from either dialect", () => {
  it("gives list items flat agentId/contactId and durations in seconds", async () => {
    const query = { limit: 20, contactId: SEED_IDS.acmeContact };
    const std = await standardApi.listConversations(query);
    const alt = await alternateApi.listConversations(query);

    expect(alt.items.length).toBeGreaterThan(0);
    expect(
      alt.items.map(({ id, agentId, contactId, duration }) => ({
        id,
        agentId,
        contactId,
        duration,
      })),
    ).toEqual(
      std.items.map(({ id, agentId, contactId, duration }) => ({
        id,
        agentId,
        contactId,
        duration,
      })),
    );
    // The envelope is left as the upstream sent it: reading it is the connection adapter's work.
    expect(alt).not.toHaveProperty("limit");
    expect(alt).toHaveProperty("total");
  });

  it("sends the free-text filter under the upstream's name for it", async () => {
    const std = await standardApi.listConversations({ limit: 100, search: "refill" });
    const alt = await alternateApi.listConversations({ limit: 100, search: "refill" });

    expect(alt.items.map((item) => item.id)).toEqual(std.items.map((item) => item.id));
    expect(alternate.requests.at(-1)?.url).toBe("/v1/conversations?limit=100&q=refill");
    expect(standard.requests.at(-1)?.url).toBe("/v1/conversations?limit=100&search=refill");
  });

  it("gives the status view its duration in seconds", async () => {
    const std = await standardApi.getConversationStatus(SEED_IDS.acmeConversation);
    const alt = await alternateApi.getConversationStatus(SEED_IDS.acmeConversation);

    expect(alt.duration).toBe(std.duration);
    expect(alt.id).toBe(SEED_IDS.acmeConversation);
  });
});

describe("reading one conversation object", () => {
  const seconds = { searchParam: "search", durationUnit: "seconds" } as const;
  const milliseconds = { searchParam: "search", durationUnit: "milliseconds" } as const;

  it("is the object itself when it is already in the schema's shape: no copy per item", () => {
    const flat = { id: "cnv_1", agentId: "agt_1", contactId: null, duration: 42, extra: [1] };
    expect(readConversation(flat, seconds)).toBe(flat);
    expect(upstreamOriginal(flat)).toBe(flat);
    const list = { items: [flat, { id: "cnv_2" }], total: 2 };
    expect(readConversationList(list, seconds)).toBe(list);
  });

  it("is a copy when a reference is nested or the duration counts milliseconds, keeping the original for raw", () => {
    const nested = { id: "cnv_1", agent: { id: "agt_1" }, contact: null, duration: 42 };
    const read = readConversation(nested, seconds) as Record<string, unknown>;
    expect(read).toEqual({ ...nested, agentId: "agt_1", contactId: null });
    expect(upstreamOriginal(read)).toBe(nested);
    const inMs = { id: "cnv_2", agentId: "agt_1", duration: 42_400 };
    expect(readConversation(inMs, milliseconds)).toEqual({ ...inMs, duration: 42 });
    expect(readConversation(inMs, seconds)).toBe(inMs);
    const list = { items: [{ id: "cnv_3" }, nested], nextCursor: null };
    const readList = readConversationList(list, seconds);
    expect(readList).not.toBe(list);
    expect(readList.items[0]).toBe(list.items[0]);
    expect(readList.items[1]).toEqual(read);
  });
});
