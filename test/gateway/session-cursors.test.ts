import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { REDACTED } from "../../src/upstream/key-redaction.ts";
import { echoOf, keyArbitrary, leaksOf } from "../support/key-echoes.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { type Harness, startHarness } from "./harness.ts";

// Session mode redacts the organization's key from every answer, but never what the gateway
// minted itself: its cursors must come back exactly as issued, or the next page is refused.

interface Page {
  agents: {
    edges: Array<{ c: string; node: { id: string; name: string } }>;
    pageInfo: {
      hasNextPage: boolean;
      hasPreviousPage: boolean;
      startCursor: string | null;
      endCursor: string | null;
    };
  };
}

// Aliases and a fragment: the exemption follows the schema's fields, not the response keys.
const PAGE = `query ($first: Int, $after: String, $last: Int, $before: String) {
  agents(first: $first, after: $after, last: $last, before: $before) {
    edges { c: cursor node { id name } }
    ...Info
  }
}
fragment Info on AgentConnection { pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }`;

type Send = (variables: Record<string, unknown>) => Promise<{ body: string; data: Page }>;

/** Every agent ID, paged one at a time forwards and then backwards, with the cursors seen. */
async function pageBothWays(send: Send) {
  const cursors: string[] = [];
  const answers: string[] = [];
  const forwards: string[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const { body, data }: { body: string; data: Page } = await send({ first: 1, after });
    answers.push(body);
    forwards.push(...data.agents.edges.map((edge) => edge.node.id));
    cursors.push(...data.agents.edges.map((edge) => edge.c));
    if (!data.agents.pageInfo.hasNextPage) break;
    after = data.agents.pageInfo.endCursor;
  }
  const backwards: string[] = [];
  let before: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const { body, data }: { body: string; data: Page } = await send({ last: 1, before });
    answers.push(body);
    backwards.unshift(...data.agents.edges.map((edge) => edge.node.id));
    cursors.push(...data.agents.edges.map((edge) => edge.c));
    if (!data.agents.pageInfo.hasPreviousPage) break;
    before = data.agents.pageInfo.startCursor;
  }
  return { forwards, backwards, cursors, answers };
}

function sender(harness: Harness, authorization: () => Promise<string>): Send {
  return async (variables) => {
    const response = await harness.graphql<Page>(PAGE, variables, {
      authorization: await authorization(),
    });
    expect(response.body.errors).toBeUndefined();
    return { body: JSON.stringify(response.body), data: response.body.data as Page };
  };
}

describe("session mode with the demo keys: the sandbox's agents", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({
      gateway: {
        session: {
          verify: createSessionVerifier({ secret: SESSION_SECRET }),
          keys: new Map([
            ["org_acme", DEMO_KEYS.acme],
            ["org_globex", DEMO_KEYS.globex],
          ]),
        },
      },
    });
  });
  afterAll(() => harness?.close());

  it.each(["org_acme", "org_globex"])("page to the end and back for %s", async (org) => {
    const send = sender(harness, async () => `Bearer ${await sessionToken({ claims: { org } })}`);
    const whole = await send({ first: 100 });
    const all = whole.data.agents.edges.map((edge) => edge.node.id);
    expect(all.length).toBeGreaterThan(1);
    const { forwards, backwards, cursors } = await pageBothWays(send);
    expect(forwards).toEqual(all);
    expect(backwards).toEqual(all);
    for (const cursor of cursors) expect(cursor).not.toContain(REDACTED);
  });
});

describe("session mode with generated keys: an upstream that names agents after the key", () => {
  const AGENTS = 4;
  const sessionKeys = new Map<string, string>();
  let echo = "";
  let upstream: RecordingUpstream;
  let harness: Harness;
  beforeAll(async () => {
    upstream = await startRecordingUpstream((request, res) => {
      const url = new URL(request.url, "http://upstream.test");
      const page = Number(url.searchParams.get("page") ?? "1");
      const pageSize = Number(url.searchParams.get("pageSize") ?? "25");
      const ids = Array.from({ length: AGENTS }, (_, i) => i).slice(
        (page - 1) * pageSize,
        page * pageSize,
      );
      const items = ids.map((i) => ({ id: `agt_${i}`, name: `Agent ${i} of ${echo}` }));
      return sendJson(res, 200, { items, page, pageSize, total: AGENTS });
    });
    harness = await startHarness({
      upstream: { baseUrl: upstream.url, maxRetries: 0 },
      gateway: {
        session: {
          verify: createSessionVerifier({ secret: SESSION_SECRET }),
          keys: sessionKeys,
          // Each run pages the whole list twice: the session limit is not what is tested here.
          perSessionPerMinute: 100_000,
        },
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await upstream?.close();
  });

  /**
   * Short keys are redacted whole (and match the most), long ones by runs of their pieces; a key
   * cut out of a cursor this gateway issued is the case where redaction would rewrite a cursor.
   */
  const keys = (issued: string[]) =>
    fc.oneof(
      keyArbitrary,
      fc.string({
        unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789_"),
        minLength: 4,
        maxLength: 11,
      }),
      fc
        .tuple(fc.constantFrom(...issued), fc.nat(), fc.integer({ min: 4, max: 24 }))
        .map(([cursor, at, length]) => {
          const payload = cursor.split(".")[0] as string;
          const start = at % (payload.length - length);
          return payload.slice(start, start + length);
        }),
    );

  it("cursors always round-trip while the echoed key never reaches an answer", async () => {
    // What the gateway issues for this list under a key no generated one resembles.
    sessionKeys.set("org_acme", "sk_test_placeholder");
    const token = async () => `Bearer ${await sessionToken()}`;
    const reference = await pageBothWays(sender(harness, token));
    await fc.assert(
      fc.asyncProperty(keys(reference.cursors), fc.gen(), async (key, gen) => {
        sessionKeys.set("org_acme", key);
        echo = key.length >= 8 ? echoOf(key, gen).text : key.toUpperCase();
        const { forwards, backwards, cursors, answers } = await pageBothWays(
          sender(harness, token),
        );
        const all = Array.from({ length: AGENTS }, (_, i) => `agt_${i}`);
        expect(forwards).toEqual(all);
        expect(backwards).toEqual(all);
        // Cursors come back as issued, and nothing of the key is in them: they are the same
        // whatever the key. A key that a cursor happens to spell is no echo of the upstream's.
        expect(cursors).toEqual(reference.cursors);
        for (const answer of answers) {
          const echoed = cursors.reduce((text, cursor) => text.replaceAll(cursor, ""), answer);
          expect(leaksOf(key, echoed)).toEqual([]);
          if (key.length < 8) expect(echoed.toLowerCase()).not.toContain(`of ${key}`);
        }
      }),
      { numRuns: 25 },
    );
  });
});
