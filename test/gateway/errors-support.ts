import { expect } from "vitest";
import { GATEWAY_REQUEST_ID } from "./harness.ts";

// What the error tests share: how the seed and the gateway word what they answer.

export const UPSTREAM_REQUEST_ID = expect.stringMatching(/^req_[a-z0-9]+$/);

export const UNAVAILABLE = "The upstream API is unavailable; try again later.";

/** The seed's error body, as an injected fault answers it. */
export function seedError(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) }, requestId: "req_fault" };
}

/**
 * An agent the upstream does not hold, asked beside the organization: the nullable field is
 * null beside its NOT_FOUND, the rest answers, and each of the two GETs is made once.
 */
export const MISSING_AGENT = {
  query: '{ agent(id: "agt_acme_missing") { id name } organization { name } }',
  data: { agent: null, organization: { name: "Acme Health" } },
  errors: [
    {
      message: "Agent agt_acme_missing was not found.",
      locations: [{ line: 1, column: 3 }],
      path: ["agent"],
      extensions: {
        code: "NOT_FOUND",
        requestId: GATEWAY_REQUEST_ID,
        upstream: {
          status: 404,
          code: "NOT_FOUND",
          message: "Agent agt_acme_missing was not found.",
          requestId: UPSTREAM_REQUEST_ID,
          details: { id: "agt_acme_missing" },
        },
      },
    },
  ],
  calls: ["GET /v1/agents/agt_acme_missing", "GET /v1/organization"],
};
