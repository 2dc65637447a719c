import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGatewayLogger } from "../../src/gateway/observability/logger.ts";
import { tracingIsOn } from "../../src/upstream/upstream-span.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

/** Every line the gateway writes, raw, as pino wrote it. */
const written: string[] = [];
const sink = { write: (line: string) => void written.push(line) };

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    gateway: { logging: createGatewayLogger("debug", sink) },
    upstream: { maxRetries: 0 },
  });
});
afterAll(() => harness.close());
afterEach(() => harness.sandbox.clearFaults());

type Line = { level: number; msg?: string; requestId?: string; [field: string]: unknown };
const DEBUG = 20;
const INFO = 30;
const WARN = 40;
const ERROR = 50;

/** The lines written while `run` runs, each parsed: every raw line must be one JSON object. */
async function linesDuring(run: () => Promise<unknown>): Promise<Line[]> {
  const from = written.length;
  await run();
  // The abort test's lines are written a moment after the caller has gone.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const raw = written.slice(from).join("");
  return raw
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Line);
}

describe("the gateway's log", () => {
  it("logs an upstream 4xx answer at debug, with the request's ID, not as an error", async () => {
    const lines = await linesDuring(() =>
      harness.graphql('{ agent(id: "agt_nope") { name } }', undefined, {
        headers: { "x-request-id": "req-log-4xx" },
      }),
    );
    expect(lines.filter((line) => line.level >= ERROR)).toEqual([]);
    const answered = lines.find((line) => line.msg === "upstream answered a client error");
    expect(answered).toMatchObject({ level: DEBUG, status: 404, code: "NOT_FOUND" });
    expect(answered?.requestId).toBe("req-log-4xx");
  });

  it("logs a client's bad or mismatched cursor at info, without a stack", async () => {
    const first = await harness.graphql<{ conversations: { pageInfo: { endCursor: string } } }>(
      "{ conversations(first: 2, filter: { status: SUCCESS }) { pageInfo { endCursor } } }",
    );
    const cursor = first.body.data?.conversations.pageInfo.endCursor;
    const lines = await linesDuring(async () => {
      await harness.graphql('{ agents(first: 2, after: "not-a-cursor") { nodes { id } } }');
      await harness.graphql(
        `{ conversations(first: 2, after: "${cursor}", filter: { status: FAILED }) { nodes { id } } }`,
      );
    });
    expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
    const refused = lines.filter((line) => line.msg === "refused a client's list arguments");
    // The garbage cursor is refused before the operation runs, as a bound is: no such line.
    expect(refused.map((line) => [line.level, line.code])).toEqual([[INFO, "CURSOR_MISMATCH"]]);
    expect(JSON.stringify(lines)).not.toContain("stack");
  });

  it("logs a key the upstream refuses at info, without a stack", async () => {
    const lines = await linesDuring(() =>
      harness.graphql("{ organization { name } }", undefined, { authorization: "Bearer sk_nope" }),
    );
    expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
    const refused = lines.filter((line) => line.msg === "upstream refused the key");
    expect(refused).toEqual([expect.objectContaining({ level: INFO, status: 401 })]);
    expect(JSON.stringify(lines)).not.toContain("stack");
  });

  it("writes nothing above debug for a malformed ID, refused before any call", async () => {
    const lines = await linesDuring(async () => {
      await harness.graphql('{ agent(id: "cmp_acme_flu_shots") { name } }');
      await harness.graphql(`{ agent(id: "agt_${"x".repeat(300)}") { name } }`);
    });
    expect(lines.filter((line) => line.level > DEBUG)).toEqual([]);
  });

  it("logs an upstream failure as one warning", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", status: 500 });
    const lines = await linesDuring(() => harness.graphql("{ organization { name } }"));
    expect(lines.filter((line) => line.level >= ERROR)).toEqual([]);
    const failed = lines.filter((line) => line.msg === "upstream failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: WARN, status: 500 });
    expect(typeof failed[0]?.requestId).toBe("string");
  });

  it("keeps upstream text in a field: a newline or ANSI escape cannot forge a line", async () => {
    const forged = 'gone\n{"level":50,"msg":"forged"}\u001b[31m red';
    harness.sandbox.injectFault({
      path: "/v1/organization",
      status: 404,
      body: { error: { code: "NOT_FOUND", message: forged } },
    });
    const from = written.length;
    const lines = await linesDuring(() => harness.graphql("{ organization { name } }"));
    const raw = written.slice(from).join("");
    expect(raw).not.toContain("\u001b");
    expect(lines.some((line) => line.msg === "forged")).toBe(false);
    const answered = lines.find((line) => line.msg === "upstream answered a client error");
    expect(answered?.upstreamMessage).toBe(forged);
  });

  it("logs a caller that went away at debug, without a stack", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", hang: true });
    const lines = await linesDuring(async () => {
      const controller = new AbortController();
      const pending = fetch(`${harness.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: ACME },
        body: JSON.stringify({ query: "{ organization { name } }" }),
        signal: controller.signal,
      }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      await pending;
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
    const gone = lines.filter((line) => line.msg === "the caller went away before the answer");
    expect(gone.length).toBeGreaterThan(0);
    expect(JSON.stringify(gone)).not.toContain("stack");
  });

  it("still logs an unexpected error as an error, with its request ID and no key", async () => {
    harness.sandbox.injectFault({
      path: "/v1/agents/agt_acme_reception",
      status: 200,
      body: { id: "agt_acme_reception" },
    });
    const lines = await linesDuring(() =>
      harness.graphql('{ agent(id: "agt_acme_reception") { primaryLanguage } }', undefined, {
        headers: { "x-request-id": "req-log-bug" },
      }),
    );
    const errors = lines.filter((line) => line.level === ERROR);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.requestId).toBe("req-log-bug");
    expect(JSON.stringify(lines)).not.toContain("sk_test_acme");
  });

  it("sends no traceparent upstream while tracing is off (no OTEL_EXPORTER_OTLP_ENDPOINT)", async () => {
    await harness.graphql("{ organization { name } }");
    const sent = harness.sandbox.requests.filter((request) => request.path === "/v1/organization");
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((request) => request.headers.traceparent === undefined)).toBe(true);
    // No provider registered: spans and their context are skipped, not built and dropped.
    expect(tracingIsOn()).toBe(false);
  });
});
