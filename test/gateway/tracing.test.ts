import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTracing, type Tracing } from "../../src/gateway/observability/tracing.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { tracingIsOn } from "../../src/upstream/upstream-span.ts";
import { type Harness, startHarness } from "./harness.ts";

/** A purpose-built OTLP/HTTP receiver: it keeps each body POSTed to /v1/traces. */
const exports: Array<{ contentType: string | undefined; body: Buffer }> = [];
let receiver: Server;
let tracing: Tracing;
let harness: Harness;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        exports.push({ contentType: req.headers["content-type"], body: Buffer.concat(chunks) });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  receiverUrl = `http://127.0.0.1:${port}`;
  tracing = await startTracing({ url: `${receiverUrl}/v1/traces` });
  harness = await startHarness({ gateway: { logging: false } });
});
afterAll(async () => {
  await harness.close();
  await tracing.shutdown();
  await new Promise((resolve) => receiver.close(resolve));
});

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** The spans of one OTLP/HTTP JSON export (the exporter's encoding: hex IDs). */
function spansIn(exported: { contentType: string | undefined; body: Buffer }): ExportedSpan[] {
  expect(exported.contentType).toMatch(/^application\/json/);
  const body = JSON.parse(exported.body.toString("utf8")) as {
    resourceSpans: Array<{ scopeSpans: Array<{ spans: ExportedSpan[] }> }>;
  };
  return body.resourceSpans.flatMap((resource) =>
    resource.scopeSpans.flatMap((scope) => scope.spans),
  );
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** The `traceparent` of the last upstream request to `path`. */
function traceparentTo(path: string): string | undefined {
  const requests = harness.sandbox.requests.filter((request) => request.path === path);
  return requests.at(-1)?.headers.traceparent;
}

describe("OpenTelemetry tracing", () => {
  it("sends a W3C traceparent upstream and exports the operation's and the call's spans", async () => {
    expect(tracingIsOn()).toBe(true);
    const before = exports.length;
    const answer = await harness.graphql("query OrgName { organization { name } }");
    expect(answer.body.errors).toBeUndefined();
    const traceparent = traceparentTo("/v1/organization");
    const [, traceId, spanId] = traceparent?.match(TRACEPARENT) ?? [];
    expect(traceId).toBeDefined();
    await tracing.flush();
    expect(exports.length).toBeGreaterThan(before);
    const spans = exports.slice(before).flatMap((each) => spansIn(each));
    const call = spans.find((span) => span.spanId === spanId);
    expect(call).toMatchObject({ traceId, name: "upstream GET /v1/organization" });
    const operation = spans.find((span) => span.spanId === call?.parentSpanId);
    expect(operation).toMatchObject({ traceId, name: "graphql.query OrgName" });
  });

  it("gives each operation its own trace, shared by all its upstream calls", async () => {
    await harness.graphql("{ organization { name } }");
    const first = traceparentTo("/v1/organization")?.match(TRACEPARENT)?.[1];
    await harness.graphql('{ organization { name } agent(id: "agt_acme_reception") { name } }');
    const second = traceparentTo("/v1/organization")?.match(TRACEPARENT)?.[1];
    const agent = traceparentTo("/v1/agents/agt_acme_reception")?.match(TRACEPARENT)?.[1];
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(agent).toBe(second);
  });

  it("is on in `npm start` when OTEL_EXPORTER_OTLP_ENDPOINT is set, and flushed on SIGTERM", async () => {
    const upstream = await startSandbox({ port: 0 });
    const child = spawn(process.execPath, ["src/main.ts"], {
      env: {
        PATH: process.env.PATH ?? "",
        PORT: "0",
        LOG_LEVEL: "error",
        UPSTREAM_URL: upstream.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: `${receiverUrl}/`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stdout = "";
      child.stdout?.on("data", (chunk) => {
        stdout += chunk;
      });
      for (let waited = 0; waited < 25_000 && !stdout.includes("upstream:"); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /GraphQL at (\S+)/.exec(stdout)?.[1] as string;
      const before = exports.length;
      const answer = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk_test_acme" },
        body: JSON.stringify({ query: "query FromMain { organization { name } }" }),
      });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      const traceId = upstream.requests.at(-1)?.headers.traceparent?.match(TRACEPARENT)?.[1];
      expect(traceId).toBeDefined();
      child.kill("SIGTERM");
      await once(child, "exit");
      const spans = exports.slice(before).flatMap((each) => spansIn(each));
      expect(spans.find((span) => span.name === "graphql.query FromMain")?.traceId).toBe(traceId);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await upstream.close();
    }
  });

  it("refuses an OTEL_EXPORTER_OTLP_ENDPOINT that is not an http(s) URL", async () => {
    const child = spawn(process.execPath, ["src/main.ts"], {
      env: {
        PATH: process.env.PATH ?? "",
        PORT: "0",
        OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, "exit");
    expect(code).not.toBe(0);
    expect(stderr).toContain("OTEL_EXPORTER_OTLP_ENDPOINT");
  });
});
