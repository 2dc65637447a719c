import { afterEach, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Harness, startHarness } from "./harness.ts";

let harness: Harness;
afterEach(() => harness.close());

async function metrics(): Promise<string> {
  const response = await fetch(`${harness.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

describe("GET /metrics", () => {
  it("counts operations by type and outcome and upstream calls by route template and status", async () => {
    harness = await startHarness();
    await harness.graphql(`{ agent(id: "${SEED_IDS.acmeAgent}") { name } }`);
    await harness.graphql('{ agent(id: "agt_does_not_exist") { name } }');
    await harness.graphql(
      'mutation { updateOrganization(input: { city: "Springfield" }) { organization { city } } }',
    );
    const text = await metrics();
    expect(text).toContain('voicegraph_operations_total{type="query",outcome="OK"} 1');
    expect(text).toContain('voicegraph_operations_total{type="query",outcome="NOT_FOUND"} 1');
    expect(text).toContain('voicegraph_operations_total{type="mutation",outcome="OK"} 1');
    expect(text).toContain(
      'voicegraph_upstream_requests_total{route="GET /v1/agents/{id}",status="200"} 1',
    );
    expect(text).toContain(
      'voicegraph_upstream_requests_total{route="GET /v1/agents/{id}",status="404"} 1',
    );
    expect(text).toContain(
      'voicegraph_upstream_requests_total{route="PATCH /v1/organization",status="200"} 1',
    );
    expect(text).toContain(
      'voicegraph_upstream_request_duration_seconds_count{route="GET /v1/agents/{id}"} 2',
    );
    expect(text).toContain("voicegraph_operation_duration_seconds_bucket");
    expect(text).toContain("voicegraph_active_subscriptions 0");
    expect(text).toContain("voicegraph_active_pollers 0");
  });

  it("holds no key, no ID and no client text after requests that carry sentinels", async () => {
    harness = await startHarness();
    const key = "Bearer sk_SENTINEL_KEY_123";
    await harness.graphql('{ agent(id: "agt_SENTINELID") { name } }', undefined, {
      authorization: key,
    });
    await harness.graphql('{ conversations(filter: { search: "SENTINELTEXT" }) { totalCount } }');
    await harness.graphql('{ node(id: "cnv_SENTINELCNV") { id } }');
    const text = await metrics();
    expect(text).not.toMatch(/SENTINEL|sk_|agt_|cnv_/);
    expect(text).toContain('route="GET /v1/conversations/{id}/status"');
  });
});
