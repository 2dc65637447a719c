import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

/** What a client may be told about its own input; anything else (a 5xx, a mask) is a defect. */
const CLIENT_CODES = new Set([
  "BAD_USER_INPUT",
  "NOT_FOUND",
  "CURSOR_MISMATCH",
  "CURSOR_EXPIRED",
  "VALIDATION_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
]);

/** Any string: ASCII, any Unicode, lone surrogates and control characters, short or long. */
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary-ascii", maxLength: 300 }),
  fc.constantFrom(
    "agt_",
    "cnv_",
    "cmp_x",
    "",
    " ",
    "\u0000",
    "agt_\ud800",
    "%2F..%2F",
    "a".repeat(400),
  ),
  fc.string({ maxLength: 20 }).map((tail) => `agt_${tail}`),
  fc.string({ maxLength: 20 }).map((tail) => `cnv_${tail}`),
);

const READS = [
  "query ($v: ID!) { agent(id: $v) { id name } }",
  "query ($v: ID!) { node(id: $v) { id } }",
  "query ($v: ID!) { conversation(id: $v) { id status } }",
  "query ($v: ID!) { contact(id: $v) { id } }",
  "query ($v: String) { conversations(first: 2, after: $v) { totalCount } }",
  "query ($v: String) { agents(last: 2, before: $v) { totalCount } }",
  "query ($v: String) { campaigns(first: 2, after: $v) { totalCount } }",
  "query ($v: String) { conversations(first: 2, filter: { search: $v }) { totalCount } }",
  "query ($v: ID) { conversations(first: 2, filter: { agentId: $v }) { totalCount } }",
];

function judge(
  status: number,
  body: { errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> },
) {
  expect(status === 200 || status === 400, `status ${status}`).toBe(true);
  for (const error of body.errors ?? []) {
    expect(CLIENT_CODES.has(String(error.extensions?.code)), JSON.stringify(error)).toBe(true);
  }
}

describe("arbitrary client input, over HTTP", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it("answers any string as an ID, a cursor or a filter with data or a client error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...READS), anyString, async (query, value) => {
        const { status, body } = await harness.graphql(query, { v: value });
        judge(status, body);
      }),
      { numRuns: 150 },
    );
  });

  it("answers any JSON as the variables of any read with data or a client error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...READS),
        fc.dictionary(fc.constantFrom("v", "w", "__proto__", "constructor"), fc.jsonValue()),
        async (query, variables) => {
          const { status, body } = await harness.graphql(query, variables);
          judge(status, body);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("keeps serving afterwards", async () => {
    const health = await fetch(`${harness.url}/healthz`);
    expect(health.status).toBe(200);
  });
});
