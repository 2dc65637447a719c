import { get, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME, corsPreflight, type Harness, startHarness } from "./harness.ts";

let harness: Harness;
let withGraphiql: Harness;
beforeAll(async () => {
  harness = await startHarness();
  withGraphiql = await startHarness({ gateway: { graphiql: { title: "voicegraph" } } });
});
afterAll(async () => {
  await harness.close();
  await withGraphiql.close();
});

const MUTATION =
  'mutation { updateOrganization(input: { city: "Forged" }) { organization { city } } }';

describe("CSRF: a request a page can send cross-site without a preflight runs nothing", () => {
  const simple: Array<[string, Record<string, string>, string]> = [
    [
      "a form-encoded POST",
      { "content-type": "application/x-www-form-urlencoded" },
      `query=${encodeURIComponent(MUTATION)}`,
    ],
    ["a text/plain POST", { "content-type": "text/plain" }, JSON.stringify({ query: MUTATION })],
  ];
  for (const [what, headers, body] of simple) {
    it(`refuses ${what} with 415, even with a key, without an upstream call`, async () => {
      const response = await fetch(`${harness.url}/graphql`, {
        method: "POST",
        headers: { ...headers, authorization: ACME },
        body,
      });
      expect(response.status).toBe(415);
      const answer = await response.json();
      expect(answer.errors[0].extensions).toEqual({
        code: "UNSUPPORTED_MEDIA_TYPE",
        http: { status: 415 },
        requestId: response.headers.get("x-request-id"),
      });
      expect(answer.data).toBeUndefined();
      expect(harness.takeUpstreamRequests()).toEqual([]);
    });
  }

  it("refuses a POST with no content type (a no-cors Blob) the same way", async () => {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { authorization: ACME },
      body: new Blob([JSON.stringify({ query: MUTATION })]),
    });
    expect(response.status).toBe(415);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("runs no mutation over GET (405)", async () => {
    const response = await fetch(`${harness.url}/graphql?query=${encodeURIComponent(MUTATION)}`, {
      headers: { authorization: ACME, accept: "application/graphql-response+json" },
    });
    expect(response.status).toBe(405);
    // The catalogue's code, and the method that would run it.
    expect(response.headers.get("allow")).toBe("POST");
    expect((await response.json()).errors[0].extensions).toMatchObject({
      code: "METHOD_NOT_ALLOWED",
      http: { status: 405 },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("still runs a JSON POST", async () => {
    const response = await harness.graphql("{ organization { name } }");
    expect(response.status).toBe(200);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });
});

describe("default CORS allows any origin, never with credentials", () => {
  it("answers any page's origin, and never Allow-Credentials", async () => {
    const preflight = await corsPreflight(harness, "https://evil.example");
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    expect(preflight.headers.get("vary")).toContain("Origin");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("gives the null origin (sandboxed frames, local files) no CORS headers", async () => {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { origin: "null", "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("request bodies are never echoed in errors", () => {
  it("answers an invalid JSON body with a message of its own, not the parser's quote", async () => {
    const sentinel = "SENTINEL-BODY-TEXT".repeat(1000);
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: `{"query": "${sentinel}`,
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain("SENTINEL");
    expect(JSON.parse(text)).toEqual({
      errors: [
        {
          message: "POST body sent invalid JSON.",
          extensions: { code: "BAD_REQUEST", requestId: response.headers.get("x-request-id") },
        },
      ],
    });
  });
});

describe("GraphiQL", () => {
  const page = (url: string) => fetch(`${url}/graphql`, { headers: { accept: "text/html" } });

  it("is off unless asked for", async () => {
    // A browser gets the short page that says how to turn GraphiQL on, not GraphiQL.
    const response = await page(harness.url);
    const html = await response.text();
    expect(html).toContain("GRAPHIQL=true");
    expect(html).not.toMatch(/graphiql\/assets/);
    const asset = await fetch(`${harness.url}/graphiql/assets/x/graphiql.js`);
    expect(asset.status).not.toBe(200);
    await asset.arrayBuffer();
  });

  it("is a small page whose assets are separate, cacheable files", async () => {
    const response = await page(withGraphiql.url);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html.length).toBeLessThan(10_000);
    const paths = [...html.matchAll(/"(\/graphiql\/assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(paths.length).toBe(6);
    for (const path of paths) {
      const asset = await fetch(`${withGraphiql.url}${path}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    const missing = await fetch(`${withGraphiql.url}/graphiql/assets/nope/__proto__`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
  });

  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip;q=0.5", "gzip"],
    ["identity", undefined],
    [undefined, undefined],
  ])("sends its assets as Accept-Encoding %s asks: %s", async (acceptEncoding, expected) => {
    const html = await (await page(withGraphiql.url)).text();
    const path = /"(\/graphiql\/assets\/[^"]+\/graphiql\.js)"/.exec(html)?.[1] as string;
    const plain = await raw(`${withGraphiql.url}${path}`, undefined);
    const sent = await raw(`${withGraphiql.url}${path}`, acceptEncoding);
    expect(sent.headers["content-encoding"]).toBe(expected);
    expect(sent.headers.vary).toBe("accept-encoding");
    expect(sent.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(sent.headers["content-length"])).toBe(sent.body.byteLength);
    const decoded =
      expected === "br"
        ? brotliDecompressSync(sent.body)
        : expected === "gzip"
          ? gunzipSync(sent.body)
          : sent.body;
    expect(decoded.equals(plain.body)).toBe(true);
    // The 5 MB script: about a quarter of it on the wire when compressed.
    if (expected !== undefined)
      expect(sent.body.byteLength).toBeLessThan(plain.body.byteLength / 3);
  });
});

/** A GET as node:http makes it: no encoding asked unless given, and none undone. */
function raw(url: string, acceptEncoding: string | undefined) {
  return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    }).on("error", reject);
  });
}
