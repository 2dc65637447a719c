import {
  type ExecutionResult,
  type GraphQLError,
  Kind,
  type OperationDefinitionNode,
} from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { ERROR_CODES } from "../../errors.ts";
import { UpstreamError } from "../../upstream/errors.ts";
import { DEFAULT_RETRY_AFTER_S, rateLimitHeaders } from "../../upstream/rate-limit.ts";
import type { ExecuteHooks, GatewayContext } from "../execution/context.ts";
import { type FactFlow, factFlow } from "../execution/operation-facts.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { retryAfterSeconds, upstreamFailureOf } from "../shared/mask-error.ts";

/** The report states the estimate beside the calls made: both paths that execute read it so. */
const REPORT_FACTS = factFlow({ reads: ["estimatedUpstreamCalls"] });

/**
 * Reports an operation's upstream traffic: `extensions.cost { estimated upstreamCalls }`,
 * `extensions.rateLimit { limit remaining resetAt }` with the same three `X-RateLimit-*`
 * response headers, and HTTP 429 with `Retry-After` when every root field was rate-limited.
 */
export function useUpstreamReport(
  documents: DocumentFactsCache,
): Plugin<GatewayContext> & { facts: FactFlow } {
  // One object for every operation: envelop keeps what onExecute returns for as long as a
  // stream is open, and the hook reads its operation from the arguments it is handed.
  const report: ExecuteHooks = {
    onExecuteDone({ args, result, setResult }) {
      if (isAsyncIterable(result)) return;
      const context = args.contextValue as GatewayContext;
      const operation = documents.of(args.document).operation(args.operationName);
      setResult(withReport(result, context, operation));
    },
  };
  return {
    facts: REPORT_FACTS,
    onExecute: () => report,
  };
}

/** The result with its report (both paths that execute report with this: yoga's and the prepared lane). */
export function withReport(
  result: ExecutionResult,
  context: GatewayContext,
  operation: OperationDefinitionNode | undefined,
): ExecutionResult {
  return reportedIn(result, upstreamReport(result, context, operation));
}

/** The result carrying a report already made: its extensions, `http` among them when asked. */
export function reportedIn(
  result: ExecutionResult,
  { extensions, http }: ReturnType<typeof upstreamReport>,
): ExecutionResult {
  if (http !== undefined) extensions.http = http;
  return { ...result, extensions };
}

/** What an answer says of transport: its status, when not the usual one, and its headers. */
export interface ReportedHttp {
  status?: number;
  headers: Record<string, string>;
}

/**
 * The report, apart: the result's extensions with `cost` and `rateLimit`, and what it asks of the
 * HTTP answer (yoga reads that from `extensions.http`; the prepared lane writes it itself).
 */
export function upstreamReport(
  result: ExecutionResult,
  context: GatewayContext,
  operation: OperationDefinitionNode | undefined,
): { extensions: Record<string, unknown>; http: ReportedHttp | undefined } {
  const { usage } = context;
  const cost: Record<string, number> = {
    estimated: REPORT_FACTS.read(context, "estimatedUpstreamCalls"),
    upstreamCalls: usage.calls,
  };
  // Calls this operation did not make itself (docs/upstream-sharing.md), when there were any.
  if (usage.joinedCalls > 0) cost.joinedCalls = usage.joinedCalls;
  if (usage.cacheHits > 0) cost.cacheHits = usage.cacheHits;
  const extensions: Record<string, unknown> =
    result.extensions === undefined ? { cost } : { ...result.extensions, cost };
  const rateLimit = usage.rateLimit;
  if (rateLimit) {
    extensions.rateLimit = {
      limit: rateLimit.limit,
      remaining: rateLimit.remaining,
      resetAt: resetAtOf(rateLimit.reset),
    };
  }
  const headers = rateLimit ? rateLimitHeaders(rateLimit) : undefined;
  const retryAfter = everyRootFieldRateLimited(result, operation);
  if (retryAfter !== undefined) {
    const status = ERROR_CODES.RATE_LIMITED;
    return {
      extensions,
      http: { status, headers: { ...headers, "Retry-After": String(retryAfter) } },
    };
  }
  return { extensions, http: headers ? { headers } : undefined };
}

/**
 * The ISO instants of the reset seconds answered lately: a pure function of the second, kept
 * because a Date's `toISOString` cost more than the rest of the report. Bounded; cleared when full.
 */
const resetInstants = new Map<number, string>();
const RESET_INSTANTS_KEPT = 256;

function resetAtOf(reset: number): string {
  let instant = resetInstants.get(reset);
  if (instant === undefined) {
    if (resetInstants.size >= RESET_INSTANTS_KEPT) resetInstants.clear();
    instant = new Date(reset * 1000).toISOString();
    resetInstants.set(reset, instant);
  }
  return instant;
}

type Selections = ReadonlyArray<import("graphql").SelectionNode>;

/** Response keys of the root fields (inline fragments followed; named ones are rare at root). */
function rootResponseKeys(selections: Selections): string[] {
  return selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.alias?.value ?? selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return rootResponseKeys(selection.selectionSet.selections);
    }
    return [];
  });
}

/** Seconds to wait when every root field failed with a 429, else undefined. */
function everyRootFieldRateLimited(
  result: ExecutionResult,
  operation: OperationDefinitionNode | undefined,
) {
  if (operation === undefined || !result.errors?.length) return undefined;
  // Only an answer with errors needs its root keys: the root selections, walked then.
  const rootKeys = rootResponseKeys(operation.selectionSet.selections);
  if (rootKeys.length === 0) return undefined;
  const data = (result.data ?? {}) as Record<string, unknown>;
  let retryAfter = 0;
  for (const key of rootKeys) {
    if (data[key] != null) return undefined;
    const limited = result.errors.find((error) => error.path?.[0] === key && isRateLimited(error));
    if (!limited) return undefined;
    retryAfter = Math.max(retryAfter, retryAfterOf(limited));
  }
  return retryAfter;
}

function isRateLimited(error: GraphQLError): boolean {
  return error.extensions.code === "RATE_LIMITED" || upstreamOf(error)?.status === 429;
}

/** The same figure as the error's `extensions.retryAfter`, whether or not it is masked yet. */
function retryAfterOf(error: GraphQLError): number {
  const upstream = upstreamOf(error);
  if (upstream) return retryAfterSeconds(upstream);
  const fromExtensions = error.extensions.retryAfter;
  return typeof fromExtensions === "number" ? fromExtensions : DEFAULT_RETRY_AFTER_S;
}

/** The upstream's 429, 5xx or other answer behind a field error, if there is one. */
function upstreamOf(error: GraphQLError): UpstreamError | undefined {
  const failure = upstreamFailureOf(error);
  return failure instanceof UpstreamError ? failure : undefined;
}
