import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME, type Harness, startHarness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ gateway: { maxRequestBytes: 2048, maxTokens: 200 } });
});
afterAll(() => harness.close());

/** POSTs raw bytes to /graphql, chunked (no Content-Length) when asked. */
function post(
  body: string,
  chunked: boolean,
): Promise<{ status: number; body: string; requestId: string | undefined }> {
  const url = new URL(`${harness.url}/graphql`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json",
          authorization: ACME,
          ...(chunked
            ? { "transfer-encoding": "chunked" }
            : { "content-length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          const requestId = res.headers["x-request-id"];
          resolve({ status: res.statusCode ?? 0, body: text, requestId: requestId?.toString() });
        });
      },
    );
    req.on("error", reject);
    if (chunked) {
      // Several chunks, as a streaming client sends them.
      for (let at = 0; at < body.length; at += 500) req.write(body.slice(at, at + 500));
      req.end();
    } else {
      req.end(body);
    }
  });
}

const small = JSON.stringify({ query: "{ organization { name } }" });
const large = JSON.stringify({ query: "{ organization { name } }", padding: "x".repeat(5000) });

describe("request limits", () => {
  it.each([false, true])(
    "refuses a body over maxRequestBytes with 413 (chunked: %s)",
    async (chunked) => {
      const response = await post(large, chunked);
      expect(response.status).toBe(413);
      expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(response.body)).toEqual({
        errors: [
          {
            message: "The request body is larger than 2048 bytes.",
            extensions: {
              code: "PAYLOAD_TOO_LARGE",
              http: { status: 413 },
              requestId: response.requestId,
            },
          },
        ],
      });
      expect(harness.takeUpstreamRequests()).toEqual([]);
    },
  );

  it.each([false, true])("serves a body within the bound (chunked: %s)", async (chunked) => {
    const response = await post(small, chunked);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).data).toEqual({ organization: { name: "Acme Health" } });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("stops parsing a document past maxTokens, before any upstream call", async () => {
    const query = `{ ${"organization { name } ".repeat(60)}}`;
    const response = await harness.graphql(query);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toBe("Syntax Error: Token limit of 200 exceeded.");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("does not take multipart requests (the schema has no file input)", async () => {
    const form = new FormData();
    form.set("operations", small);
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { authorization: ACME },
      body: form,
    });
    expect(response.status).toBe(415);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});
