import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import { closedAfterEachTest } from "../support/closing.ts";

/**
 * Starts a sandbox with `options` once for the file's tests (`"file"`) or afresh for each test
 * (`"test"`), and closes it after them. Returns a reader for the running sandbox.
 */
export function sandboxFor(per: "file" | "test", options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  const [before, after] = per === "file" ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    sandbox = await startSandbox(options);
  });
  after(() => sandbox?.close());
  return () => {
    if (sandbox === undefined) throw new Error("no sandbox yet: read it inside a hook or a test");
    return sandbox;
  };
}

/**
 * For tests that start their own sandbox, each with its own options: returns the function that
 * starts it, and closes the one a test started once that test ends.
 */
export function sandboxPerTest(): (options?: SandboxOptions) => Promise<Sandbox> {
  const closing = closedAfterEachTest();
  return async (options = {}) => closing(await startSandbox(options));
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when it is not JSON, or undefined when empty. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any;
}

export interface CallOptions {
  /** API key; null sends no Authorization header. Default: Acme's full-access key. */
  key?: string | null;
  method?: string;
  /** Objects are sent as JSON; strings are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One real HTTP request to the sandbox. */
export async function call(
  sandbox: Sandbox,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const { key = DEMO_KEYS.acme, method = "GET", body, headers = {}, signal } = options;
  const init: RequestInit = { method, headers: { ...headers } };
  if (signal !== undefined) init.signal = signal;
  const requestHeaders = init.headers as Record<string, string>;
  if (key !== null) requestHeaders.authorization = `Bearer ${key}`;
  if (body !== undefined) {
    requestHeaders["content-type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(`${sandbox.url}${path}`, init);
  const text = await response.text();
  let parsed: unknown = text === "" ? undefined : text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * Asserts an error answer in the seed's shape: the status, `error.code`, a message, a
 * `requestId` equal to the X-Request-Id header, JSON content type. Returns `error.details`.
 */
// biome-ignore lint/suspicious/noExplicitAny: details are free-form
export function expectError(answer: Answer, status: number, code: string): any {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
  expect(answer.headers.get("content-type")).toBe("application/json");
  expect(typeof answer.body.error.message).toBe("string");
  expect(answer.body.requestId).toMatch(/^req_[a-z0-9]+$/);
  expect(answer.headers.get("x-request-id")).toBe(answer.body.requestId);
  const allowed = ["error", "requestId"];
  expect(Object.keys(answer.body).filter((key) => !allowed.includes(key))).toEqual([]);
  return answer.body.error.details;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
