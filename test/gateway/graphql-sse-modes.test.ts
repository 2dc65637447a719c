import { createClient } from "graphql-sse";
import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { ACME, startHarness } from "./harness.ts";
import { LIVE, SUBSCRIPTION } from "./subscriptions-support.ts";

// graphql-sse's client in both of its modes. Distinct connections (one HTTP request per
// operation) at /graphql and at /graphql/stream; the single-connection mode (one event stream for
// every operation of a client, as a browser watching many live calls over HTTP/1.1 needs) at
// /graphql/stream.

const closing = closedAfterEachTest();

describe.each([
  ["distinct connections at /graphql", "/graphql", false],
  ["distinct connections at /graphql/stream", "/graphql/stream", false],
  ["a single connection at /graphql/stream", "/graphql/stream", true],
] as const)("graphql-sse, %s", (_mode, path, singleConnection) => {
  async function clientFor(authorization: string | undefined = ACME) {
    const harness = closing(await startHarness({ sandbox: { callDurationMs: 60_000 } }));
    const client = createClient({
      url: `${harness.url}${path}`,
      singleConnection,
      headers: authorization ? { authorization } : {},
      retryAttempts: 0,
    });
    closing({ close: () => client.dispose() });
    return { harness, client };
  }

  it("answers a query", async () => {
    const { client } = await clientFor();
    const results: unknown[] = [];
    for await (const result of client.iterate({ query: "{ organization { id name } }" })) {
      results.push(result);
    }
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      data: { organization: { id: "org_acme", name: "Acme Health" } },
    });
  });

  it("follows a live call, several subscriptions at once", async () => {
    const { client } = await clientFor();
    const firsts = await Promise.all(
      [1, 2, 3].map(async () => {
        for await (const result of client.iterate({
          query: SUBSCRIPTION,
          variables: { id: LIVE },
        })) {
          return result;
        }
        return undefined;
      }),
    );
    for (const first of firsts) {
      expect(first).toMatchObject({
        data: { conversationStatus: { conversation: { id: LIVE, status: "IN_PROGRESS" } } },
      });
    }
  });

  it("refuses an operation whose key is malformed as UNAUTHENTICATED, with no upstream call", async () => {
    const { client, harness } = await clientFor("Bearer sk_test_acme\u00e9");
    harness.takeUpstreamRequests();
    const seen = await (async () => {
      const results: Array<{ errors?: Array<{ extensions?: Record<string, unknown> }> }> = [];
      for await (const result of client.iterate({ query: "{ organization { id } }" })) {
        results.push(result as never);
      }
      return results[0]?.errors?.[0]?.extensions?.code;
    })().catch((error: Error) => error.message);
    // As an event of the stream, or (yoga's SSE at /graphql) as the request's own 401.
    expect(seen).toMatch(/^UNAUTHENTICATED$|Server responded with 401/);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});
