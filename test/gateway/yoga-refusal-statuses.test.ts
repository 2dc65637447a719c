import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MADE_BY_YOGA } from "../../scripts/docs-tables.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ gateway: { maxTokens: 200 } });
});
afterAll(() => harness.close());

/** A body each of yoga's refusals answers (docs/errors.md prints their statuses). */
const BODIES: Record<string, string> = {
  GRAPHQL_PARSE_FAILED: JSON.stringify({ query: `{ ${"organization { name } ".repeat(60)}}` }),
  GRAPHQL_VALIDATION_FAILED: JSON.stringify({ query: "{ nope }" }),
  BAD_REQUEST: "{ not json",
};

describe("yoga's own refusals of a document, per Accept", () => {
  for (const row of MADE_BY_YOGA) {
    it(`answers ${row.code} ${row.graphqlResponseJson} or ${row.json}, with no http.status`, async () => {
      const statuses: Record<string, number> = {};
      for (const accept of ["application/graphql-response+json", "application/json", "*/*"]) {
        const response = await fetch(`${harness.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", accept, authorization: ACME },
          body: BODIES[row.code],
        });
        const body = (await response.json()) as {
          errors: { extensions: Record<string, unknown> }[];
        };
        expect(body.errors[0]?.extensions.code).toBe(row.code);
        expect(body.errors[0]?.extensions.http).toBeUndefined();
        statuses[accept] = response.status;
      }
      expect(statuses).toEqual({
        "application/graphql-response+json": row.graphqlResponseJson,
        "application/json": row.json,
        "*/*": row.json,
      });
      expect(harness.takeUpstreamRequests()).toEqual([]);
    });
  }
});
