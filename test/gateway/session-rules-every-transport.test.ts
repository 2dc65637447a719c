import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayLogger } from "../../src/gateway/observability/logger.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import { type Harness, startHarness } from "./harness.ts";
import { type Seen, TRANSPORTS, type Transport } from "./transports.ts";

// No rule of session mode (or of key validation) can be sidestepped by choosing
// another transport. One table: each rule, over each transport, with the same expectation.

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const ORGANIZATION = "query Org { organization { id name } }";
const UPDATE =
  'mutation Move { updateOrganization(input: { city: "Springfield" }) { organization { city } } }';
const SCHEMA = "query Schema { __schema { queryType { name } } }";
const CREATE = 'mutation Create { createAgent(input: { name: "Mallory" }) { agent { id } } }';
const manifest = Object.fromEntries([ORGANIZATION, UPDATE, SCHEMA].map((q) => [sha256(q), q]));
const PER_MINUTE = 4;

const token = (subject: string, claims: Record<string, unknown> = {}) =>
  sessionToken({ subject, claims });

/** Every log line the gateway writes, as pino writes them. */
function capturedLog() {
  const lines: string[] = [];
  const logger = createGatewayLogger("debug", { write: (line: string) => lines.push(line) });
  return { lines, logger };
}

/** The cases a transport can send at all: HTTP headers carry no control character (transports.ts). */
const carried = (transport: Transport, cases: Array<[string, string]>) =>
  cases.filter(([, value]) => transport.carries(value));

const codes = (seen: Seen) => (seen.errors ?? []).map((error) => error.extensions?.code);

describe.each(TRANSPORTS.map((transport) => [transport.name, transport] as const))(
  "session mode over %s",
  (_name, transport: Transport) => {
    let harness: Harness;
    const log = capturedLog();
    beforeAll(async () => {
      harness = await startHarness({
        gateway: {
          session: {
            verify: createSessionVerifier({ secret: SESSION_SECRET }),
            keys: new Map([["org_acme", DEMO_KEYS.acme]]),
            perSessionPerMinute: PER_MINUTE,
          },
          persistedDocuments: { manifest, trustedOnly: true },
          introspection: false,
          logging: log.logger,
        },
      });
    });
    afterAll(() => harness.close());

    async function asSession(sub: string, claims: Record<string, unknown> = {}) {
      return transport.open(harness, `Bearer ${await token(`${transport.name}-${sub}`, claims)}`);
    }

    it("runs a trusted document", async () => {
      const client = await asSession("trusted");
      try {
        expect(await client.run(ORGANIZATION)).toMatchObject({
          data: { organization: { id: "org_acme" } },
        });
      } finally {
        await client.close();
      }
    });

    it("refuses an operation outside the manifest, with no upstream call", async () => {
      const client = await asSession("attacker");
      try {
        harness.takeUpstreamRequests();
        expect(codes(await client.run(CREATE))).toEqual(["PERSISTED_QUERY_ONLY"]);
        expect(harness.takeUpstreamRequests()).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it("refuses a read-only session's mutation, with no upstream call", async () => {
      const client = await asSession("reader", { readOnly: true });
      try {
        harness.takeUpstreamRequests();
        expect(codes(await client.run(UPDATE))).toEqual(["FORBIDDEN"]);
        expect(harness.takeUpstreamRequests()).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it("refuses introspection, even as a trusted document", async () => {
      const client = await asSession("mapper");
      try {
        const seen = await client.run(SCHEMA);
        expect(seen.data ?? null).toBeNull();
        expect(seen.errors?.[0]?.message).toMatch(/introspection/i);
      } finally {
        await client.close();
      }
    });

    it("refuses one operation past the session's rate limit, and keeps the connection", async () => {
      const client = await asSession("busy");
      try {
        for (let i = 0; i < PER_MINUTE; i++)
          expect(codes(await client.run(ORGANIZATION))).toEqual([]);
        const limited = await client.run(ORGANIZATION);
        expect(codes(limited)).toEqual(["RATE_LIMITED"]);
        expect(limited.errors?.[0]?.extensions?.retryAfter).toBeGreaterThan(0);
        expect(client.isOpen()).toBe(true);
        expect(codes(await client.run(ORGANIZATION))).toEqual(["RATE_LIMITED"]);
        expect(client.isOpen()).toBe(true);
      } finally {
        await client.close();
      }
    });

    it.each(
      carried(transport, [
        ["a NUL", "Bearer ab\u0000cd"],
        ["a line break", "Bearer ab\r\ncd"],
        ["a lone surrogate", "Bearer ab\ud800cd"],
        ["a non-ASCII character", "Bearer ab\u00e9cd"],
        ["5000 bytes", `Bearer ${"a".repeat(5000)}`],
      ]),
    )("refuses a token with %s as UNAUTHENTICATED, with no stack trace", async (_what, value) => {
      const client = transport.open(harness, value);
      try {
        harness.takeUpstreamRequests();
        expect(codes(await client.run(ORGANIZATION))).toEqual(["UNAUTHENTICATED"]);
        expect(harness.takeUpstreamRequests()).toEqual([]);
        expect(log.lines.filter((line) => /"level":50|stack/.test(line))).toEqual([]);
      } finally {
        await client.close();
      }
    });
  },
);

describe.each(TRANSPORTS.map((transport) => [transport.name, transport] as const))(
  "key validation in passthrough mode over %s",
  (_name, transport: Transport) => {
    let harness: Harness;
    const log = capturedLog();
    beforeAll(async () => {
      harness = await startHarness({ gateway: { logging: log.logger } });
    });
    afterAll(() => harness.close());

    it.each(
      carried(transport, [
        ["a NUL", `Bearer ${DEMO_KEYS.acme}\u0000`],
        ["a line break", `Bearer ${DEMO_KEYS.acme}\r\nX-Injected: 1`],
        ["a lone surrogate", `Bearer ${DEMO_KEYS.acme}\ud800`],
        ["a non-ASCII character", `Bearer ${DEMO_KEYS.acme}\u00e9`],
        ["5000 bytes", `Bearer ${"a".repeat(5000)}`],
      ]),
    )(
      "refuses a key with %s as UNAUTHENTICATED, with no upstream call and no stack trace",
      async (_what, value) => {
        const client = transport.open(harness, value);
        try {
          harness.takeUpstreamRequests();
          expect(codes(await client.run(ORGANIZATION))).toEqual(["UNAUTHENTICATED"]);
          expect(harness.takeUpstreamRequests()).toEqual([]);
          expect(log.lines.filter((line) => /"level":50|stack/.test(line))).toEqual([]);
        } finally {
          await client.close();
        }
      },
    );

    it("runs with a well-formed key", async () => {
      const client = transport.open(harness, `Bearer ${DEMO_KEYS.acme}`);
      try {
        expect(await client.run(ORGANIZATION)).toMatchObject({
          data: { organization: { id: "org_acme" } },
        });
      } finally {
        await client.close();
      }
    });
  },
);
