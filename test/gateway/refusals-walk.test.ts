import { request } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MADE_BY_YOGA } from "../../scripts/docs-tables.ts";
import { isGatewayErrorCode } from "../../src/errors.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";
import { rawExchange } from "./raw-http.ts";

const MAX_BYTES = 2048;
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    gateway: { maxRequestBytes: MAX_BYTES, metricsAccess: { token: "scraper" } },
  });
});
afterAll(() => harness.close());

interface Walked {
  method: string;
  path: string;
  contentType: string | undefined;
  accept: string | undefined;
  body: string;
  authorization: boolean;
}

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
const PATHS = [
  "/graphql",
  "/graphql?query=%7B__typename%7D",
  "/graphql?query=%7B",
  "/graphql/logout",
  "/graphql/stream",
  "/graphql/extra",
  "/healthz",
  "/readyz",
  "/metrics",
  "/",
  "/nope",
  "/GRAPHQL",
];
const CONTENT_TYPES = [
  undefined,
  "application/json",
  "application/xml",
  "application/json-patch+json",
  "application/graphql-response+json",
  "application/graphql",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
];
const ACCEPTS = [
  undefined,
  "application/json",
  "application/graphql-response+json",
  "text/html",
  "text/event-stream",
  "multipart/mixed",
  "image/png",
  "*/*",
];
const QUERY = JSON.stringify({ query: "{ organization { name } }" });
const BODIES = ["", QUERY, JSON.stringify({ query: `{ __typename }${" ".repeat(MAX_BYTES)}` })];

/** The status, headers and (for a refusal) body of one request; a success's body is not read. */
function walk(base: string, walked: Walked) {
  const url = new URL(walked.path, base);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const headers: Record<string, string> = {};
      if (walked.contentType !== undefined) headers["content-type"] = walked.contentType;
      if (walked.accept !== undefined) headers.accept = walked.accept;
      if (walked.authorization) headers.authorization = ACME;
      if (walked.body !== "" || walked.method !== "GET") {
        headers["content-length"] = String(Buffer.byteLength(walked.body));
      }
      const outgoing = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: walked.method,
          headers,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status < 400) {
            response.destroy();
            resolve({ status, headers: response.headers, body: "" });
            return;
          }
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () => resolve({ status, headers: response.headers, body: text }));
        },
      );
      outgoing.on("error", reject);
      outgoing.end(walked.body);
    },
  );
}

/** Why a refusal is not a catalogue error, or undefined when it is one. */
function fault(answer: { status: number; headers: Record<string, unknown>; body: string }) {
  if (answer.status < 400) return undefined;
  let parsed: { errors?: { message?: unknown; extensions?: Record<string, unknown> }[] };
  // A client that accepts only a stream gets the refusal as the stream's one result, in JSON.
  const type = String(answer.headers["content-type"]);
  const streamed = /multipart\/mixed|text\/event-stream/.test(type);
  const json = streamed
    ? (/^data: (.*)$/m.exec(answer.body)?.[1] ?? /\r\n\r\n(\{.*\})/s.exec(answer.body)?.[1] ?? "")
    : answer.body;
  try {
    parsed = JSON.parse(json);
  } catch {
    return `${answer.status} with a body that is not JSON: ${JSON.stringify(answer.body.slice(0, 80))}`;
  }
  const error = parsed.errors?.[0];
  const code = error?.extensions?.code;
  if (typeof error?.message !== "string") return `${answer.status} without an error message`;
  if (!isGatewayErrorCode(code) && !MADE_BY_YOGA.some((row) => row.code === code)) {
    return `${answer.status} with code ${String(code)}`;
  }
  const requestId = error.extensions?.requestId;
  if (typeof requestId !== "string" || answer.headers["x-request-id"] !== requestId) {
    return `${answer.status} ${String(code)} without its requestId in X-Request-Id`;
  }
  if (!streamed && !type.includes("json")) {
    return `${answer.status} ${String(code)} as ${String(answer.headers["content-type"])}`;
  }
  return undefined;
}

async function faultOf(walked: Walked): Promise<string | undefined> {
  const why = fault(await walk(harness.url, walked));
  return (
    why &&
    `${walked.method} ${walked.path} ${walked.contentType} ${walked.accept} ${walked.body.length}: ${why}`
  );
}

/** What node:http answers raw bytes with, status, headers and body, read off the socket. */
async function rawAnswer(bytes: string) {
  const text = await rawExchange(harness.url, bytes);
  const at = text.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = text.slice(0, at).split("\r\n");
  const headers: Record<string, unknown> = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: text.slice(at + 4) };
}

describe("every response of 400 and above is a catalogue error with its requestId", () => {
  it("over every method, path, content type and body size", async () => {
    const faults: string[] = [];
    for (const method of METHODS)
      for (const path of PATHS)
        for (const contentType of CONTENT_TYPES)
          for (const body of method === "GET" ? [""] : BODIES) {
            const walked = {
              method,
              path,
              contentType,
              accept: "application/json",
              body,
              authorization: true,
            };
            const why = await faultOf(walked);
            if (why) faults.push(why);
          }
    expect(faults).toEqual([]);
  });

  it("over generated requests: any Accept, with or without a key", async () => {
    const walked = fc.record({
      method: fc.constantFrom(...METHODS),
      path: fc.constantFrom(...PATHS),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      accept: fc.constantFrom(...ACCEPTS),
      body: fc.constantFrom(...BODIES),
      authorization: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(walked, async (request) => {
        expect(await faultOf(request)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ["no Host", "GET /healthz HTTP/1.1\r\n\r\n", 400, "BAD_HTTP_REQUEST"],
    ["a malformed request line", "GET\r\n\r\n", 400, "BAD_HTTP_REQUEST"],
    ["bytes that are not HTTP", "\u0000\u0001 hello\r\n\r\n", 400, "BAD_HTTP_REQUEST"],
    [
      "headers over 16 KiB",
      `GET /graphql HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(17 * 1024)}\r\n\r\n`,
      431,
      "HEADERS_TOO_LARGE",
    ],
    [
      "a WebSocket upgrade to another path",
      "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      404,
      "NOT_FOUND",
    ],
  ])("answers %s with a whole HTTP/1.1 response", async (_name, bytes, status, code) => {
    const answer = await rawAnswer(bytes as string);
    expect(fault(answer)).toBeUndefined();
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe(code);
  });
});
