import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { scriptPerTest } from "../support/scripts.ts";

// `npm start` with SANDBOX_DIALECT and the two settings the gateway cannot read from answers.
const startGateway = scriptPerTest("src/main.ts", { PORT: "0", LOG_LEVEL: "error" });
function start(env: Record<string, string>) {
  const gateway = startGateway(env);
  return {
    ...gateway,
    /** The GraphQL URL, once the banner names it (bounded wait). */
    async url(): Promise<string> {
      const stdout = await gateway.stdoutWith(/upstream:.*\n/);
      // "GraphiQL at" over the embedded sandbox, "GraphQL at" (GraphiQL off) over another.
      return /Graph(?:i)?QL at (\S+)/.exec(stdout)?.[1] as string;
    },
  };
}

async function ask(url: string, query: string): Promise<unknown> {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk_test_acme" },
    body: JSON.stringify({ query }),
  });
  return answer.json();
}

const DURATION = `{ conversation(id: "${SEED_IDS.acmeConversation}") { duration } }`;

describe("npm start with SANDBOX_DIALECT=alternate", () => {
  it("reads the embedded sandbox's millisecond durations as seconds", async () => {
    const gateway = start({ SANDBOX_DIALECT: "alternate" });
    expect(await ask(await gateway.url(), DURATION)).toMatchObject({
      data: { conversation: { duration: 60 } },
    });
  });

  it("lets UPSTREAM_DURATION_UNIT override what the dialect implies", async () => {
    const gateway = start({ SANDBOX_DIALECT: "alternate", UPSTREAM_DURATION_UNIT: "seconds" });
    expect(await ask(await gateway.url(), DURATION)).toMatchObject({
      data: { conversation: { duration: 60_000 } },
    });
  });

  it("sends the free-text filter as UPSTREAM_SEARCH_PARAM names it", async () => {
    const upstream = await startSandbox({ port: 0, dialect: "alternate" });
    try {
      const gateway = start({ UPSTREAM_URL: upstream.url, UPSTREAM_SEARCH_PARAM: "q" });
      await ask(
        await gateway.url(),
        '{ conversations(first: 2, filter: { search: "refill" }) { nodes { id } } }',
      );
      const lists = upstream.requests.filter((request) => request.path === "/v1/conversations");
      expect(lists.length).toBeGreaterThan(0);
      for (const request of lists) {
        expect(request.query).toMatchObject({ q: "refill" });
        expect(request.query).not.toHaveProperty("search");
        expect(request.status).toBe(200);
      }
    } finally {
      await upstream.close();
    }
  });

  it.each([
    [
      { SANDBOX_DIALECT: "loose" },
      'SANDBOX_DIALECT must be one of standard, alternate (got "loose")',
    ],
    [
      { UPSTREAM_DURATION_UNIT: "minutes" },
      'UPSTREAM_DURATION_UNIT must be one of seconds, milliseconds (got "minutes")',
    ],
    [
      { UPSTREAM_SEARCH_PARAM: "a b" },
      'UPSTREAM_SEARCH_PARAM must be a query parameter name, e.g. q (got "a b")',
    ],
  ])("stops with one line naming a bad variable: %o", async (env, line) => {
    const gateway = start(env);
    const [code] = await once(gateway.child, "exit");
    expect(code).toBe(1);
    expect(gateway.output().stderr).toBe(`${line}\n`);
  });
});
