import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAIT_MS } from "../support/wait.ts";
import { FLOODS, inWaves, SECRETS_QUERY, SUBSCRIBE_LIVE } from "./floods.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";
import { readUntil, singleConnection, until } from "./sse-single-connection-support.ts";
import { LIVE } from "./subscriptions-support.ts";
import { TRANSPORTS, type Transport } from "./transports.ts";

// Beside the session rules table (session-rules-every-transport.test.ts): one table of attacks,
// each over each transport. Whatever the attack, no data of Acme's reaches the attacker, and
// /healthz and Acme's own query keep answering; a flood leaves nothing reserved (what memory it
// leaves is the bench's to measure: bench/checks/flood-memory.check.ts).

/** The same, its ID written in (a transport client here sends no variables). */
const SUBSCRIBE_LIVE_INLINE = SUBSCRIBE_LIVE.replace("($id: ID!)", "").replace(
  "(id: $id)",
  `(id: "${LIVE}")`,
);

/** A few connections: an attacker who could hold them would shut everyone out. */
const MAX_CONNECTIONS = 40;

interface Attack {
  /** Whether the attack means anything over this transport. */
  applies(transport: Transport): boolean;
  /** Everything the attacker was answered, as text. */
  run(harness: Harness, transport: Transport): Promise<string>;
}

const everyTransport = () => true;
const singleConnectionOnly = (transport: Transport) =>
  transport.name === "graphql-sse single connection";

/** Runs `query` over the transport with `authorization`: the attacker's view of it. */
async function runAs(harness: Harness, transport: Transport, authorization: string, query: string) {
  const client = transport.open(harness, authorization);
  try {
    return JSON.stringify(await client.run(query));
  } finally {
    await client.close();
  }
}

const ATTACKS: Array<[string, Attack]> = [
  [
    "no key",
    {
      applies: everyTransport,
      run: async (harness, transport) => {
        const seen = await runAs(harness, transport, "", SECRETS_QUERY);
        expect(seen).toContain("UNAUTHENTICATED");
        return seen;
      },
    },
  ],
  [
    "another organization's key",
    {
      applies: everyTransport,
      run: async (harness, transport) => {
        const query = await runAs(harness, transport, GLOBEX, SECRETS_QUERY);
        expect(query).toContain("NOT_FOUND");
        // A plain JSON request carries no subscription.
        if (transport.name === "HTTP") return query;
        const subscription = await runAs(harness, transport, GLOBEX, SUBSCRIBE_LIVE_INLINE);
        expect(subscription).toContain("NOT_FOUND");
        return query + subscription;
      },
    },
  ],
  [
    "a guessed key",
    {
      applies: everyTransport,
      run: async (harness, transport) => {
        const seen = await runAs(
          harness,
          transport,
          "Bearer sk_test_guessed_key_0000",
          SECRETS_QUERY,
        );
        expect(seen).toContain("UNAUTHENTICATED");
        return seen;
      },
    },
  ],
  [
    "a guessed or stolen stream token",
    {
      applies: singleConnectionOnly,
      run: async (harness) => {
        const sse = singleConnection(harness.url);
        const token = await (await sse.put(ACME)).text();
        const stream = await sse.open(token, ACME);
        expect(stream.status).toBe(200);
        const live = await sse.post(token, ACME, SUBSCRIBE_LIVE, "live", { id: LIVE });
        expect(live.status).toBe(202);
        const guessed = "A".repeat(43);
        const answers = await Promise.all([
          sse.open(token, undefined),
          sse.open(token, GLOBEX),
          sse.open(guessed, GLOBEX),
          sse.post(token, undefined, SECRETS_QUERY, "stolen"),
          sse.post(token, GLOBEX, SECRETS_QUERY, "stolen"),
          sse.post(guessed, GLOBEX, SECRETS_QUERY, "stolen"),
          sse.remove(token, undefined, "live"),
          sse.remove(token, GLOBEX, "live"),
        ]);
        const texts = await Promise.all(
          answers.map(async (answer) => `${answer.status} ${await answer.text()}`),
        );
        for (const text of texts) expect(text).toMatch(/^404 .*NOT_FOUND/);
        // Acme's stream runs on, its subscription too, and only Acme reads it.
        expect((await sse.post(token, ACME, SECRETS_QUERY, "mine")).status).toBe(202);
        const own = await readUntil(stream, (text) => text.includes('"id":"mine"'));
        expect(own.text).toContain("Acme Health");
        expect(own.text).not.toContain('"id":"stolen"');
        expect(harness.gateway.conversationStatusHub.pollerCount).toBeGreaterThan(0);
        await stream.body?.cancel();
        await until(() => harness.gateway.sseStreams.reserved === 0, WAIT_MS, "stream closed");
        await until(
          () => harness.gateway.conversationStatusHub.pollerCount === 0,
          WAIT_MS,
          "subscription ended with its stream",
        );
        return texts.join("\n");
      },
    },
  ],
  [
    "a token chosen by the client",
    {
      applies: singleConnectionOnly,
      run: async (harness, transport) => {
        const sse = singleConnection(harness.url);
        const chosen = "victim-token-0001";
        const keyless = await sse.put(undefined, chosen);
        expect(keyless.status).toBe(401);
        const keyed = await sse.put(GLOBEX, chosen);
        expect(keyed.status).toBe(201);
        const granted = await keyed.text();
        expect(granted).not.toBe(chosen);
        // No lockout: Acme's own client reserves and runs as before.
        const acme = await runAs(harness, transport, ACME, SECRETS_QUERY);
        expect(acme).toContain("Acme Health");
        return `${await keyless.text()}\n${granted}`;
      },
    },
  ],
  [
    "a flood",
    {
      applies: everyTransport,
      run: async (harness, transport) => {
        const flood = FLOODS[transport.name];
        const reserved = harness.gateway.sseStreams.reserved;
        await inWaves(400, 25, (index) => flood(harness, index));
        // Not one reservation or subscription is left of it.
        // (A reservation made before may expire meanwhile on a busy machine: never more.)
        expect(harness.gateway.sseStreams.reserved).toBeLessThanOrEqual(reserved);
        expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
        return "";
      },
    },
  ],
];

describe.each(TRANSPORTS.map((transport) => [transport.name, transport] as const))(
  "attacks over %s",
  (_name, transport: Transport) => {
    let harness: Harness;
    let secrets: string[];
    beforeAll(async () => {
      harness = await startHarness({
        sandbox: { callDurationMs: 60_000 },
        listen: { maxConnections: MAX_CONNECTIONS },
      });
      const own = await harness.graphql<{
        organization: Record<string, string | null>;
        agent: Record<string, string | null>;
      }>(SECRETS_QUERY);
      const { organization, agent } = own.body.data ?? { organization: {}, agent: {} };
      secrets = [...Object.values(organization), agent.systemPrompt].filter(
        (value): value is string => typeof value === "string" && value.length > 3,
      );
      expect(secrets).toContain("Acme Health");
      expect(secrets.length).toBeGreaterThanOrEqual(3);
    });
    afterAll(() => harness.close());

    it.each(ATTACKS.filter(([, attack]) => attack.applies(transport)))(
      "%s: no data crosses keys; /healthz and a keyed query keep answering",
      async (_attack, attack) => {
        const seen = await attack.run(harness, transport);
        expect(secrets.filter((secret) => seen.includes(secret))).toEqual([]);
        expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
        const keyed = await harness.graphql("{ organization { name } }");
        expect(keyed.body.data).toEqual({ organization: { name: "Acme Health" } });
      },
    );
  },
);
