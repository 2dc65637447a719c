import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { SUBGRAPH_FILE } from "../../src/schema/print.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import {
  COMPOSERS,
  type GraphQLBody,
  type Listening,
  post,
  startCompanySubgraph,
  startRouter,
  subgraphsOf,
} from "./federation-support.ts";
import { type Harness, startHarness } from "./harness.ts";

// Session mode behind a router (docs/federation.md): browsers hold a session token, the router
// forwards it, and voicegraph exchanges it for the organization's key as it would for a browser.

async function token(claims: Record<string, unknown> = {}): Promise<string> {
  return `Bearer ${await sessionToken({ claims })}`;
}

let harness: Harness;
let company: Awaited<ReturnType<typeof startCompanySubgraph>>;
let router: Listening;

beforeAll(async () => {
  harness = await startHarness({
    sandbox: { callIntervalMs: 3_600_000 },
    gateway: {
      schema: subgraphSchema,
      session: {
        verify: createSessionVerifier({ secret: SESSION_SECRET }),
        keys: new Map([
          ["org_acme", DEMO_KEYS.acme],
          ["org_globex", DEMO_KEYS.globex],
        ]),
        perSessionPerMinute: 1000,
      },
      // Trusted documents are the router's to enforce: its plans are not a client's documents.
      persistedDocuments: { trustedOnly: false },
      introspection: false,
    },
  });
  company = await startCompanySubgraph();
  // `_service` needs a token in session mode: the supergraph is composed from the committed SDL.
  const subgraphs = subgraphsOf(readFileSync(SUBGRAPH_FILE, "utf8"), {
    voicegraph: `${harness.url}/graphql`,
    company: company.url,
  });
  const { supergraphSdl } = COMPOSERS["@theguild/federation-composition"](subgraphs);
  if (supergraphSdl === undefined) throw new Error("no supergraph");
  router = await startRouter(supergraphSdl);
});
afterAll(async () => {
  await router?.close();
  await company?.close();
  await harness?.close();
});

async function throughRouter(query: string, authorization: string | null) {
  harness.takeUpstreamRequests();
  const { body } = await post(router.url, query, { authorization });
  const keys = harness.sandbox.requests.map((request) => request.headers.authorization);
  return { body, upstream: harness.takeUpstreamRequests(), upstreamKeys: [...new Set(keys)] };
}

const codesOf = (body: GraphQLBody) => (body.errors ?? []).map((error) => error.extensions?.code);

const ADA = `{ employee(id: "emp_ada") { name agents { id name } } }`;

describe("a session-mode subgraph behind Hive Gateway", () => {
  it("exchanges the forwarded token for its organization's key, and answers that organization only", async () => {
    const asAcme = await throughRouter(ADA, await token());
    expect(asAcme.body).toEqual({
      data: {
        employee: {
          name: "Ada",
          agents: [
            { id: SEED_IDS.acmeAgent, name: "Reception" },
            { id: SEED_IDS.acmeAgentPaused, name: "Scheduler" },
          ],
        },
      },
    });
    expect(asAcme.upstreamKeys).toEqual([`Bearer ${DEMO_KEYS.acme}`]);
    expect(JSON.stringify(asAcme.body)).not.toContain("sk_test");

    const asGlobex = await throughRouter(ADA, await token({ org: "org_globex" }));
    expect(asGlobex.body.data).toEqual({
      employee: {
        name: "Ada",
        agents: [
          { id: SEED_IDS.acmeAgent, name: null },
          { id: SEED_IDS.acmeAgentPaused, name: null },
        ],
      },
    });
    expect(codesOf(asGlobex.body)).toEqual(["NOT_FOUND", "NOT_FOUND"]);
    expect(asGlobex.upstreamKeys).toEqual([`Bearer ${DEMO_KEYS.globex}`]);
  });

  it("refuses a read-only token's mutation FORBIDDEN, with no upstream call", async () => {
    const answer = await throughRouter(
      'mutation { updateOrganization(input: { city: "Springfield" }) { organization { city } } }',
      await token({ readOnly: true }),
    );
    expect(codesOf(answer.body)).toEqual(["FORBIDDEN"]);
    expect(answer.upstream).toEqual([]);
  });

  it("answers `_service { sdl }` to a valid token only", async () => {
    const url = `${harness.url}/graphql`;
    const refused = await post(url, "{ _service { sdl } }", { authorization: null });
    expect(codesOf(refused.body)).toEqual(["UNAUTHENTICATED"]);
    const answered = await post(url, "{ _service { sdl } }", { authorization: await token() });
    const sdl = (answered.body.data as { _service: { sdl: string } } | undefined)?._service.sdl;
    expect(`${sdl?.trimEnd()}\n`).toBe(readFileSync(SUBGRAPH_FILE, "utf8"));
  });

  it("answers UNAUTHENTICATED without a token, or with a bad one, with no upstream call", async () => {
    for (const authorization of [null, "Bearer not-a-token"]) {
      const answer = await throughRouter(
        `{ agent(id: "${SEED_IDS.acmeAgent}") { name } }`,
        authorization,
      );
      expect(answer.body.data?.agent ?? null).toBeNull();
      expect(codesOf(answer.body)).toEqual(["UNAUTHENTICATED"]);
      expect(answer.upstream).toEqual([]);
    }
  });
});
