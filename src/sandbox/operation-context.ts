import type { Caller } from "./auth.ts";
import type { CursorCodec } from "./cursor.ts";
import type { Dialect } from "./dialects.ts";
import type { ResolvedOptions } from "./options.ts";
import type { QueryReader } from "./query-params.ts";
import type { RequestBody } from "./request-body.ts";
import type { OrgData } from "./store.ts";

/** Everything an operation may look at; it only ever sees the caller's own organization. */
export interface OperationContext {
  org: OrgData;
  caller: Caller;
  /** Path parameters, already URL-decoded. */
  params: Record<string, string>;
  /** Already checked against the route's known parameters. */
  query: QueryReader;
  body: RequestBody;
  nowMs: number;
  cursors: CursorCodec;
  options: ResolvedOptions;
  /** The reading of the seed's silent spots this sandbox answers in. */
  dialect: Dialect;
}

export interface OperationResult {
  status: number;
  /** undefined: no body (204). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** One REST operation. Failures are thrown as ApiError. */
export type Operation = (ctx: OperationContext) => OperationResult;

export function ok(body: unknown): OperationResult {
  return { status: 200, body };
}

export function noContent(): OperationResult {
  return { status: 204 };
}

/** A successful delete as the dialect answers it: 204, or 200 `{ id, deleted: true }`. */
export function deleted(ctx: OperationContext, id: string): OperationResult {
  return ctx.dialect.deleteAnswer === "no-content" ? noContent() : ok({ id, deleted: true });
}

/** The path parameter `name`; the route table guarantees it exists. */
export function param(ctx: OperationContext, name: string): string {
  return ctx.params[name] ?? "";
}
