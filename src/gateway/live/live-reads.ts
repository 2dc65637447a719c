import { createHash } from "node:crypto";
import type { UpstreamRequest, UpstreamResponse } from "../../upstream/client.ts";
import { UpstreamError } from "../../upstream/errors.ts";

/**
 * One upstream read as a live query depends on it: what the upstream answered (a status and a
 * body, or the error it answered with), and the text two answers are compared by.
 */
export type ReadAnswer =
  | { status: number; body: unknown }
  | { error: { status: number; code: string; message: string; details?: unknown } };

/** A GET as a poller repeats it: the request without anything of one operation's. */
export interface ReadTemplate {
  path: string;
  query?: UpstreamRequest["query"];
  operation?: UpstreamRequest["operation"];
}

/** The identity of a GET for one key: its path and its query parameters, in the order sent. */
export function requestKeyOf(req: Pick<UpstreamRequest, "path" | "query">): string {
  const query = Object.entries(req.query ?? {}).filter(([, value]) => value !== undefined);
  return JSON.stringify([req.path, query]);
}

/** A short, fixed-length name for a request key (Redis names, maps). */
export function requestDigest(requestKey: string): string {
  return createHash("sha256").update(requestKey).digest("base64url").slice(0, 22);
}

export function templateOf(req: UpstreamRequest): ReadTemplate {
  return {
    path: req.path,
    ...(req.query ? { query: req.query } : {}),
    ...(req.operation ? { operation: req.operation } : {}),
  };
}

/** What the upstream said, as a poller keeps it; undefined for a failure that is not an answer. */
export function answerOf(outcome: UpstreamResponse<unknown> | unknown): ReadAnswer | undefined {
  if (outcome instanceof UpstreamError) {
    // A 429 or a 5xx says nothing of the resource: the poller keeps its last answer and reads
    // again (after a 429's reset: read-poller.ts), rather than push a passing failure to everyone.
    if (outcome.status === 429 || outcome.status >= 500) return undefined;
    return {
      error: {
        status: outcome.status,
        code: outcome.code,
        message: outcome.message,
        ...(outcome.details === undefined ? {} : { details: outcome.details }),
      },
    };
  }
  const response = outcome as Partial<UpstreamResponse<unknown>> | undefined;
  if (response && typeof response.status === "number" && "body" in response) {
    return { status: response.status, body: response.body };
  }
  return undefined;
}

/** The answer as the operation's own call would have returned it (a copy: callers may keep it). */
export function replay(answer: ReadAnswer): UpstreamResponse<unknown> {
  if ("error" in answer) {
    throw new UpstreamError({
      status: answer.error.status,
      code: answer.error.code,
      message: answer.error.message,
      requestId: undefined,
      details: answer.error.details as never,
    });
  }
  return {
    status: answer.status,
    body: structuredClone(answer.body),
    rateLimit: undefined,
    requestId: undefined,
  };
}

export function answerText(answer: ReadAnswer): string {
  return JSON.stringify(answer);
}

/** A refusal of the key (401, 403): it ends every stream that follows the read. */
export function refusalOf(answer: ReadAnswer): UpstreamError | undefined {
  if (!("error" in answer)) return undefined;
  const { status } = answer.error;
  if (status !== 401 && status !== 403) return undefined;
  try {
    replay(answer);
  } catch (error) {
    return error as UpstreamError;
  }
  return undefined;
}

/** What a poller that gave up ends its streams with: the last failure, as it was. */
export function failureOf(outcome: unknown): Error {
  return outcome instanceof Error ? outcome : new Error("the upstream did not answer");
}
