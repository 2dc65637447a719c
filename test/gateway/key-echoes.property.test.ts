import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayLogger } from "../../src/gateway/observability/logger.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { echoOf, keyArbitrary, leaksOf } from "../support/key-echoes.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { type Harness, startHarness } from "./harness.ts";

// Whatever a loopback upstream echoes of the caller's key (pieces, case
// changes, encodings, the key split across fields), no run of 8 of its characters reaches an
// answer in session mode, or a log line, a span or a metric in either mode.

/** What the upstream echoes for the next requests: set by each run of the property. */
let echoes: {
  code: string;
  message: string;
  detail: string;
  requestId: string;
  header: string;
  name: string;
};

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const lines: string[] = [];
const logger = createGatewayLogger("debug", { write: (line: string) => lines.push(line) });
const sessionKeys = new Map<string, string>();

let upstream: RecordingUpstream;
let passthrough: Harness;
let session: Harness;

beforeAll(async () => {
  provider.register();
  upstream = await startRecordingUpstream((request, res) => {
    const headers = { "x-request-id": echoes.header };
    if (request.url.startsWith("/v1/organization")) {
      // A 2xx answer that carries the key: an organization named after it.
      return sendJson(
        res,
        200,
        { id: "org_1", name: echoes.name, timezone: echoes.detail },
        headers,
      );
    }
    const body = {
      error: {
        code: echoes.code,
        message: echoes.message,
        details: { hint: echoes.detail, [echoes.detail]: 1 },
      },
      requestId: echoes.requestId,
    };
    return sendJson(res, request.url.includes("agt_") ? 401 : 503, body, headers);
  });
  const upstreamOptions = { baseUrl: upstream.url, maxRetries: 0 };
  passthrough = await startHarness({ upstream: upstreamOptions, gateway: { logging: logger } });
  session = await startHarness({
    upstream: upstreamOptions,
    gateway: {
      logging: logger,
      session: { verify: createSessionVerifier({ secret: SESSION_SECRET }), keys: sessionKeys },
    },
  });
});
afterAll(async () => {
  await session?.close();
  await passthrough?.close();
  await upstream?.close();
  await provider.shutdown();
  // register() set process-wide globals that the next test file in this worker would inherit.
  trace.disable();
  propagation.disable();
  context.disable();
});

const OPERATION =
  '{ organization { id name timezone } agent(id: "agt_1") { id } campaign(id: "cmp_1") { id } }';

/** Echoes of `key` for every field an upstream may fill, one generated way each. */
function echoesOf(key: string, gen: fc.GeneratorValue) {
  const half = Math.floor(key.length / 2);
  const split = key.length >= 16;
  return {
    // The key split across two fields, when it is long enough for each half to be a run.
    code: split ? `E_${key.slice(0, half)}` : echoOf(key, gen).text,
    message: `invalid key ${split ? key.slice(half) : echoOf(key, gen).text} (${echoOf(key, gen).text})`,
    detail: echoOf(key, gen).text,
    requestId: `req_${echoOf(key, gen).text}`,
    header: `hdr-${echoOf(key, gen).text}`.replace(/[^\x21-\x7e]/g, "_"),
    name: `Org of ${echoOf(key, gen).text}`,
  };
}

/**
 * A /metrics text without the gateway's own vocabulary (HELP and TYPE lines, metric names): what
 * is left is what a request can put there. A key's public prefix and two random letters can spell
 * a metric's name (`sk_live_po…` and `voicegraph_live_pollers`), which is no leak.
 */
function samplesOf(metrics: string): string {
  return metrics
    .split("\n")
    .filter((line) => !line.startsWith("#"))
    .map((line) => line.replace(/^[a-z_:]+/, ""))
    .join("\n");
}

async function everythingSeen(harness: Harness, authorization: string) {
  lines.length = 0;
  exporter.reset();
  const response = await fetch(`${harness.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify({ query: OPERATION }),
  });
  const answer = `${JSON.stringify([...response.headers])}${await response.text()}`;
  const metrics = samplesOf(await (await fetch(`${harness.url}/metrics`)).text());
  await provider.forceFlush();
  const spans = JSON.stringify(
    exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events,
    })),
  );
  return { answer, log: lines.join("\n"), spans, metrics };
}

describe("an upstream that echoes the caller's key", () => {
  it("in passthrough mode, reaches no log line, span or metric", async () => {
    await fc.assert(
      fc.asyncProperty(keyArbitrary, fc.gen(), async (key, gen) => {
        echoes = echoesOf(key, gen);
        const seen = await everythingSeen(passthrough, `Bearer ${key}`);
        expect(seen.log).toContain("upstream");
        expect(seen.spans).toContain("upstream GET /v1/agents/{id}");
        expect(leaksOf(key, seen.log), seen.log).toEqual([]);
        expect(leaksOf(key, seen.spans), seen.spans).toEqual([]);
        expect(leaksOf(key, seen.metrics)).toEqual([]);
        // Errors are the gateway's to show: redacted in passthrough too.
        const errors = JSON.stringify(
          JSON.parse(seen.answer.slice(seen.answer.indexOf("]]") + 2)).errors,
        );
        expect(leaksOf(key, errors), errors).toEqual([]);
      }),
      { numRuns: 40 },
    );
  }, 90_000); // forty requests, each read back from logs, spans and metrics: a busy machine is slow

  it("in session mode, reaches no answer, log line, span or metric", async () => {
    await fc.assert(
      fc.asyncProperty(keyArbitrary, fc.gen(), async (key, gen) => {
        sessionKeys.set("org_acme", key);
        echoes = echoesOf(key, gen);
        const token = await sessionToken();
        const seen = await everythingSeen(session, `Bearer ${token}`);
        expect(seen.answer).toContain('"organization"');
        for (const [where, text] of Object.entries(seen)) {
          expect(leaksOf(key, text), `${where}: ${text}`).toEqual([]);
        }
        // Only plain upstream codes reach the browser.
        const body = JSON.parse(seen.answer.slice(seen.answer.indexOf("]]") + 2));
        for (const error of body.errors ?? []) {
          const code = error.extensions?.upstream?.code;
          if (code !== undefined) expect(code).toMatch(/^[A-Z][A-Z0-9_]{0,63}$/);
        }
      }),
      { numRuns: 40 },
    );
  }, 90_000); // forty requests, each read back from logs, spans and metrics: a busy machine is slow
});
