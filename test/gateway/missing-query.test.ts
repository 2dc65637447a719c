import { describe, expect, it } from "vitest";
import { harness, oneHarnessPerFile } from "./file-harness.ts";
import { ACME } from "./harness.ts";

oneHarnessPerFile();

/** Requests that carry no query, no `documentId` and no persisted-query hash. */
const WITHOUT_A_QUERY: { method: "GET" | "POST"; body?: string }[] = [
  { method: "POST", body: "{}" },
  { method: "POST", body: '{"variables":{}}' },
  { method: "POST", body: '{"query":null}' },
  { method: "GET" },
];

describe("a request without a query", () => {
  it.each(["application/json", "application/graphql-response+json"])(
    "is refused BAD_REQUEST, as the catalogue names it, to a client accepting %s",
    async (accept) => {
      for (const { method, body } of WITHOUT_A_QUERY) {
        const response = await fetch(`${harness.url}/graphql`, {
          method,
          headers: { "content-type": "application/json", accept, authorization: ACME },
          body,
        });
        const answer = (await response.json()) as {
          data?: unknown;
          errors?: { extensions?: { code?: string } }[];
        };
        expect(response.status).toBe(400);
        expect(answer.data).toBeUndefined();
        expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(["BAD_REQUEST"]);
      }
      expect(harness.takeUpstreamRequests()).toEqual([]);
    },
  );
});
