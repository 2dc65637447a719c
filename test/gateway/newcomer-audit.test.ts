import { readFileSync } from "node:fs";
import { get } from "node:http";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME, type Harness, startHarness } from "./harness.ts";

/**
 * Sentences a newcomer's audit of the docs found untrue, each read from its page and held to the
 * running gateway: when the sentence or the code changes alone, its test fails.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const doc = (file: string) => readFileSync(resolve(ROOT, file), "utf8").replace(/\s+/g, " ");

/** The sentence as the page has it, or a failure naming the page: a test of nothing proves nothing. */
function sentence(file: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(doc(file));
  if (found === null) throw new Error(`${file} no longer says ${pattern}: update this test`);
  return found;
}

let harness: Harness;
beforeAll(async () => {
  // The defaults a newcomer runs with, GraphiQL on as over the embedded sandbox.
  harness = await startHarness({ gateway: { graphiql: { title: "voicegraph" } } });
});
afterAll(() => harness.close());

describe("the newcomer's audit, as tests", () => {
  it("errors.md: every error carries requestId, the 415 and the 413 included", async () => {
    sentence("docs/errors.md", /Every error also carries `requestId`\./);
    const refused = [
      await fetch(`${harness.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "text/plain", authorization: ACME },
        body: "{}",
      }),
      await fetch(`${harness.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: ACME },
        body: JSON.stringify({ query: `{ __typename } # ${"x".repeat(2 * 1024 * 1024)}` }),
      }),
    ];
    expect(refused.map((response) => response.status)).toEqual([415, 413]);
    for (const response of refused) {
      const body = (await response.json()) as { errors: Array<{ extensions: object }> };
      expect(body.errors[0]?.extensions).toMatchObject({
        requestId: response.headers.get("x-request-id"),
      });
    }
  });

  it("errors.md: BAD_USER_INPUT names the argument of a bound such as `first: 1000`", async () => {
    const [, bound = "", argument = ""] = sentence(
      "docs/errors.md",
      /names the `argument` by its path: a bound \(`((\w+): \d+)`\)/,
    );
    const response = await harness.graphql(`{ agents(${bound}) { totalCount } }`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      argument,
    });
  });

  it("errors.md: SHUTTING_DOWN shows http.status 503 only where it ends the whole operation", () => {
    const [row = ""] = sentence("docs/errors.md", /\| `SHUTTING_DOWN` \|[^\n]*?\| — \|/);
    // Its two columns: the refusal of a whole operation, and the field error.
    expect(row).toContain("| 503, `http.status` 503 | 200, no `http.status` |");
    // What the code does on each side is walked in error-catalogue-walk.test.ts (a live query
    // ended by a drain) and live-drain.test.ts; the row is printed from the same catalogue.
  });

  it("limits.md: MAX_ALIASES counts every alias, `__typename`'s too", async () => {
    const [, limit = ""] = sentence("docs/limits.md", /\| `MAX_ALIASES` \| `(\d+)` \| aliases/);
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(" ")} }`;
    const within = await harness.graphql(aliases(Number(limit)));
    expect(within.status).toBe(200);
    const past = await harness.graphql(aliases(Number(limit) + 1));
    expect(past.status).toBe(400);
    expect(past.body.errors?.[0]?.extensions).toMatchObject({
      code: "ALIAS_LIMIT_EXCEEDED",
      limit: Number(limit),
    });
  });

  it("security.md: GraphiQL's assets travel compressed, about the size it says", async () => {
    const [, megabytes = ""] = sentence(
      "docs/security.md",
      /fetches their 9 MB as about (\d+(?:\.\d+)?) MB, once/,
    );
    const page = await fetch(`${harness.url}/graphql`, { headers: { accept: "text/html" } });
    const paths = [...(await page.text()).matchAll(/"(\/graphiql\/assets\/[^"]+)"/g)].map(
      ([, path]) => path as string,
    );
    expect(paths).toHaveLength(6);
    let sent = 0;
    let plain = 0;
    for (const path of paths) {
      sent += await bytesOf(`${harness.url}${path}`, "br, gzip");
      plain += await bytesOf(`${harness.url}${path}`, undefined);
    }
    expect(plain).toBeGreaterThan(8_500_000);
    expect(Math.abs(sent / 1e6 - Number(megabytes))).toBeLessThan(0.15);
  });
});

/** Bytes of a body as sent on the wire for this Accept-Encoding. */
function bytesOf(url: string, acceptEncoding: string | undefined): Promise<number> {
  return new Promise((done, fail) => {
    const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    get(url, { headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      response.on("end", () => done(bytes));
      response.on("error", fail);
    }).on("error", fail);
  });
}
