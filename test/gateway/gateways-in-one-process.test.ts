import { afterEach, describe, expect, it } from "vitest";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

// Nothing in src/ is shared between two gateways created in one process: each names keys by a
// secret of its own, and keeps its own limits, cost records and document facts.
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function gateway(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const harness = await startHarness(options);
  harnesses.push(harness);
  return harness;
}

const PAGE_WITH_PARTIES = `{
  conversations(first: 100) { nodes { id agent { name } contact { stats } } }
}`;

describe("two gateways in one process", () => {
  it("name one key each by a secret of its own, unchanged by the other's creation", async () => {
    const a = await gateway();
    const before = a.gateway.keyHash(ACME);
    const b = await gateway();

    expect(b.gateway.keyHash(ACME)).not.toBe(before);
    expect(a.gateway.keyHash(ACME)).toBe(before);
    // One key however its header is spelled, in each.
    expect(a.gateway.keyHash(` bearer   ${ACME.slice("Bearer ".length)} `)).toBe(before);
  });

  it("derive a fleet's key hashes from the secret they are given, and nothing else", () => {
    const one = createKeyHasher("the first fleet's secret of 32 characters");
    const other = createKeyHasher("the other fleet's secret of 32 characters");

    expect(one(ACME)).toBe(createKeyHasher("the first fleet's secret of 32 characters")(ACME));
    expect(one(ACME)).not.toBe(other(ACME));
  });

  it("keep their own limits, cost records and document facts", async () => {
    const roomy = await gateway();
    const strict = await gateway({ gateway: { maxUpstreamCalls: 5 } });

    const refused = await strict.graphql(PAGE_WITH_PARTIES);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: "COST_LIMIT_EXCEEDED",
      cost: { estimated: 23, upstreamCalls: 0, limit: 5 },
    });
    expect(strict.takeUpstreamRequests()).toEqual([]);

    const answered = await roomy.graphql(PAGE_WITH_PARTIES);
    expect(answered.body.errors).toBeUndefined();
    expect(answered.body.extensions?.cost).toEqual({ estimated: 23, upstreamCalls: 17 });

    // The roomy gateway's run changed nothing of the strict one's, and the other way round.
    const again = await strict.graphql(PAGE_WITH_PARTIES);
    expect(again.body.errors?.[0]?.extensions).toMatchObject({
      cost: { estimated: 23, upstreamCalls: 0, limit: 5 },
    });
    expect(strict.takeUpstreamRequests()).toEqual([]);
    expect(roomy.gateway.documentFacts.computed).toBe(1);
    expect(strict.gateway.documentFacts.computed).toBe(1);
  });
});
