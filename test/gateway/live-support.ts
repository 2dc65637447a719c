import { createClient as createSseClient } from "graphql-sse";
import type { Client } from "graphql-ws";
import { expect, vi } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME, type Harness } from "./harness.ts";

// What the live-query tests share: the operations, real clients that keep every result, and
// changes made directly on the sandbox (not through the gateway).

export const AGENT_ID = SEED_IDS.acmeAgent;

export const LIVE_AGENT = /* GraphQL */ `
  query LiveAgent($id: ID!) @live { agent(id: $id) { id name } }
`;

export interface LiveResult {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
  revision?: number;
  patch?: unknown;
}

/** One live operation as a client follows it: every result so far, and a way to stop. */
export interface Following {
  results: LiveResult[];
  /** Waits (bounded) until at least `count` results arrived. */
  count(count: number, timeoutMs?: number): Promise<LiveResult[]>;
  /** Resolves when the stream ends; rejects with the client's error. */
  ended: Promise<void>;
  stop(): void;
}

function following(iterable: AsyncIterableIterator<unknown>, stop: () => void): Following {
  const results: LiveResult[] = [];
  const ended = (async () => {
    for await (const result of iterable) results.push(result as LiveResult);
  })();
  ended.catch(() => undefined);
  return {
    results,
    async count(count, timeoutMs = WAIT_MS) {
      await vi.waitFor(() => expect(results.length).toBeGreaterThanOrEqual(count), {
        timeout: timeoutMs,
        interval: 10,
      });
      return results;
    },
    ended,
    stop,
  };
}

export function followWs(
  client: Client,
  query: string,
  variables: Record<string, unknown> = { id: AGENT_ID },
  extensions?: Record<string, unknown>,
): Following {
  const iterator = client.iterate({ query, variables, ...(extensions ? { extensions } : {}) });
  return following(iterator, () => void iterator.return?.());
}

/** graphql-sse's client, in its distinct-connections mode (one POST per operation). */
export function followSse(
  harness: Harness,
  query: string,
  variables: Record<string, unknown> = { id: AGENT_ID },
  authorization = ACME,
): Following {
  return followSseClient({ url: `${harness.url}/graphql` }, query, variables, authorization);
}

/** graphql-sse's client in its single-connection mode (one stream, operations over it). */
export function followSseSingleConnection(
  harness: Harness,
  query: string,
  variables: Record<string, unknown> = { id: AGENT_ID },
  authorization = ACME,
): Following {
  const mode = { url: `${harness.url}/graphql/stream`, singleConnection: true };
  return followSseClient(mode, query, variables, authorization);
}

/** graphql-sse's own client in either mode, followed until the test stops it. */
function followSseClient(
  mode: { url: string; singleConnection?: boolean },
  query: string,
  variables: Record<string, unknown>,
  authorization: string,
): Following {
  const client = createSseClient({ ...mode, headers: { authorization }, retryAttempts: 0 });
  const iterator = client.iterate({ query, variables });
  return following(iterator, () => {
    void iterator.return?.();
    client.dispose();
  });
}

/**
 * A multipart HTTP client (`Accept: multipart/mixed`): each part's JSON as it arrives, read
 * by boundary.
 */
export function followMultipart(
  harness: Harness,
  query: string,
  variables: Record<string, unknown> = { id: AGENT_ID },
): Following {
  const controller = new AbortController();
  const iterator = (async function* () {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "multipart/mixed",
        authorization: ACME,
      },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
    });
    const boundary = /boundary="?([^";]+)"?/.exec(response.headers.get("content-type") ?? "")?.[1];
    if (!boundary) throw new Error(`not multipart: ${response.headers.get("content-type")}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as ReadableStream<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const parts = buffer.split(`--${boundary}`);
      buffer = parts.pop() ?? "";
      for (const part of parts) {
        const start = part.indexOf("{");
        if (start !== -1) yield JSON.parse(part.slice(start)) as unknown;
      }
    }
  })();
  return following(iterator, () => controller.abort());
}

/** As yoga's GraphiQL sends a live query: a GET asking for `text/event-stream`. */
export function followGraphiQL(harness: Harness, query: string, operationName: string): Following {
  const controller = new AbortController();
  const iterator = (async function* () {
    const url = new URL(`${harness.url}/graphql`);
    url.searchParams.set("query", query);
    url.searchParams.set("operationName", operationName);
    const response = await fetch(url, {
      headers: { accept: "text/event-stream", authorization: ACME },
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as ReadableStream<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const events = buffer.split("\n\n");
      buffer = events.pop() ?? "";
      for (const event of events) {
        const data = event
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5))
          .join("\n");
        if (event.startsWith("event: next") && data !== "") yield JSON.parse(data) as unknown;
      }
    }
  })();
  return following(iterator, () => controller.abort());
}

/** Renames an agent on the sandbox itself, as another system writing to the platform would. */
export async function renameOnUpstream(
  harness: Harness,
  name: string,
  agentId = AGENT_ID,
  authorization = ACME,
): Promise<void> {
  const response = await fetch(`${harness.sandbox.url}/v1/agents/${agentId}`, {
    method: "PATCH",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

/** GETs of one path the sandbox received since the last take, by API key. */
export function takeReads(harness: Harness, path: string): string[] {
  const reads = harness.sandbox.requests
    .filter((request) => request.method === "GET" && request.path === path)
    .map((request) => request.headers.authorization ?? "");
  harness.sandbox.clearRequests();
  return reads;
}

export function names(results: LiveResult[]): unknown[] {
  return results.map((result) => (result.data?.agent as { name?: unknown } | null)?.name);
}
