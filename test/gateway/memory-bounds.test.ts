import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { scriptPerTest } from "../support/scripts.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";

// Memory no caller without a key can pin (issue 17, item 2): APQ registrations only for an
// accepted key and per key, and every cache fed by request text bounded in bytes.

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const ORGANIZATION = "query Org { organization { name } }";

async function post(url: string, body: unknown, authorization: string | null) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(authorization === null ? {} : { authorization }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const byHash = (query: string) => ({
  extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
});
const withQuery = (query: string) => ({ query, ...byHash(query) });
const codeOf = (answer: { body: Record<string, unknown> }) =>
  (answer.body.errors as Array<{ extensions: { code: string } }> | undefined)?.[0]?.extensions.code;

describe("automatic persisted queries, tied to an accepted key", () => {
  let harness: Harness;
  afterEach(() => harness.close());

  it("keeps no registration without a key, nor for a key the upstream refused", async () => {
    harness = await startHarness();
    expect((await post(harness.url, withQuery(ORGANIZATION), null)).status).toBe(401);
    const refused = await post(harness.url, withQuery(ORGANIZATION), "Bearer sk_wrong");
    expect(codeOf(refused)).toBe("UNAUTHENTICATED");
    // Acme has used no hash: both tries above left nothing behind.
    expect(codeOf(await post(harness.url, byHash(ORGANIZATION), ACME))).toBe(
      "PERSISTED_QUERY_NOT_FOUND",
    );
  });

  it("answers another key's and a keyless probe as it answers an unknown hash", async () => {
    harness = await startHarness();
    const registered = await post(harness.url, withQuery(ORGANIZATION), ACME);
    expect(registered.body.data).toEqual({ organization: { name: "Acme Health" } });
    expect((await post(harness.url, byHash(ORGANIZATION), ACME)).body.data).toEqual(
      registered.body.data,
    );
    const unknown = await post(harness.url, byHash(`${ORGANIZATION} # never sent`), GLOBEX);
    for (const authorization of [GLOBEX, null]) {
      const probe = await post(harness.url, byHash(ORGANIZATION), authorization);
      const shape = (answer: typeof probe) => ({
        status: answer.status,
        errors: (answer.body.errors as Array<{ message: string }>).map((e) => e.message),
        code: codeOf(answer),
      });
      expect(shape(probe)).toEqual(shape(unknown));
      expect(codeOf(probe)).toBe("PERSISTED_QUERY_NOT_FOUND");
    }
  });

  it("never registers a document over MAX_CACHED_DOCUMENT_BYTES (it runs, and is not kept)", async () => {
    harness = await startHarness({ gateway: { bounds: { maxCachedDocumentBytes: 1024 } } });
    const large = `${ORGANIZATION} #${"x".repeat(2000)}`;
    expect((await post(harness.url, withQuery(large), ACME)).body.data).toEqual({
      organization: { name: "Acme Health" },
    });
    expect(codeOf(await post(harness.url, byHash(large), ACME))).toBe("PERSISTED_QUERY_NOT_FOUND");
  });
});

/** Resident set size of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb * 1024;
}

describe("the 1 MB flood, against a spawned gateway", () => {
  const start = scriptPerTest("src/main.ts");

  it("keeps RSS within a bound through 600 keyless APQ registrations of 1 MB documents", async () => {
    const gateway = start({ PORT: "0", LOG_LEVEL: "error" });
    const banner = await gateway.stdoutWith("other keys");
    const url = (/GraphQL at (\S+)\/graphql/.exec(banner) ??
      /GraphiQL at (\S+)\/graphql/.exec(banner))?.[1] as string;
    const pid = gateway.child.pid as number;
    // Warm up: the same kinds of requests, small, so the baseline has the code paths loaded.
    for (let i = 0; i < 20; i++) {
      await post(url, withQuery(`query W${i} { organization { name } }`), null);
    }
    const before = rssBytes(pid);
    const flood = 300;
    let refused = 0;
    const floodOnce = async (round: number) => {
      for (let i = 0; i < flood; i++) {
        // Half parse (padding in a comment: 401), half do not (a parse error): both caches fed.
        const padding = i % 2 === 0 ? `#${"x".repeat(1_000_000)}` : " a".repeat(500_000);
        const query = `query F${round}_${i} { organization { name } } ${padding}`;
        const answer = await post(url, withQuery(query), null);
        if (answer.body.data == null && answer.body.errors !== undefined) refused += 1;
      }
      // Idle a little: the flood's garbage is collected, what a cache holds is not.
      for (let i = 0; i < 10; i++) {
        await post(url, { query: ORGANIZATION }, ACME);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return rssBytes(pid);
    };
    const afterFirst = await floodOnce(1);
    const afterSecond = await floodOnce(2);
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    console.info(
      `1 MB flood: 2 × ${flood} keyless registrations, RSS ${mb(before)} MB -> ${mb(afterFirst)} MB -> ${mb(afterSecond)} MB`,
    );
    expect(refused).toBe(2 * flood);
    // Unbounded, the first 300 texts of 1 MB stayed (APQ store and parse caches): +795 MB measured.
    expect(mb(afterFirst - before)).toBeLessThan(200);
    // Bounded, a second flood finds the caches full of nothing it can grow: no further climb.
    expect(mb(afterSecond - afterFirst)).toBeLessThan(100);
  }, 60_000);
});
