import {
  type DocumentNode,
  type ExecutionArgs,
  GraphQLError,
  type OperationDefinitionNode,
} from "graphql";
import { gatewayError } from "../../errors.ts";
import type { GatewayContext } from "../execution/context.ts";
import { factFlow } from "../execution/operation-facts.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import { catalogueErrorOf } from "../shared/mask-error.ts";
import { estimateUpstreamCalls } from "./estimate-upstream-calls.ts";
import { type JudgingPlugin, refuseBeforeRunning } from "./refuse-before-running.ts";

export interface CostLimitOptions {
  /** Most upstream calls one operation may be estimated to make (MAX_UPSTREAM_CALLS). */
  maxUpstreamCalls: number;
  /** The gateway's facts of each document. */
  documents: DocumentFactsCache;
}

/**
 * The static cost check: connection bounds, and the upstream-call estimate against
 * `maxUpstreamCalls`, before any upstream call (the runtime budget in the context backs it).
 */
export function useCostLimit(options: CostLimitOptions): JudgingPlugin {
  const { maxUpstreamCalls, documents } = options;
  const facts = factFlow({ reads: ["variables"], produces: ["estimatedUpstreamCalls"] });
  /**
   * An operation whose count reads no variable (none of its page sizes or list arguments is one)
   * costs the same every time: its estimate (or the error it raises) is kept per document object,
   * which yoga's parser cache hands back for the same text.
   */
  const constant = new WeakMap<DocumentNode, Map<string, number | GraphQLError>>();

  function estimateOf(
    args: ExecutionArgs,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): number {
    const key = operation.name?.value ?? "";
    let known = constant.get(args.document);
    const cached = known?.get(key);
    if (cached instanceof GraphQLError) throw cached;
    if (cached !== undefined) return cached;
    const { fragments } = documents.of(args.document);
    let readsVariables = false;
    let outcome: number | GraphQLError;
    try {
      outcome = estimateUpstreamCalls({
        schema: args.schema,
        operation,
        fragments,
        variables,
        onVariableRead: () => {
          readsVariables = true;
        },
        cursorKey: (args.contextValue as unknown as GatewayContext).cursorKey,
      });
    } catch (error) {
      // A bad argument: a connection's own error, or graphql-js's, as the catalogue answers it.
      const refusal =
        catalogueErrorOf(error) ?? (error instanceof GraphQLError ? error : undefined);
      if (refusal === undefined) throw error;
      outcome = refusal;
    }
    if (!readsVariables) {
      if (known === undefined) {
        known = new Map();
        constant.set(args.document, known);
      }
      known.set(key, outcome);
    }
    if (outcome instanceof GraphQLError) throw outcome;
    return outcome;
  }

  function judge(args: ExecutionArgs) {
    const context = args.contextValue as object;
    const operation = documents.of(args.document).operation(args.operationName);
    if (!operation) {
      // Execution reports the missing operation, and calls nothing upstream.
      facts.produce(context, "estimatedUpstreamCalls", 0);
      return undefined;
    }
    let estimated: number;
    try {
      estimated = estimateOf(args, operation, facts.read(context, "variables"));
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [requestLevel(error)] };
      throw error;
    }
    facts.produce(context, "estimatedUpstreamCalls", estimated);
    if (estimated <= maxUpstreamCalls) return undefined;
    // Refused operations report their cost too: nothing was called upstream.
    const cost = { estimated, upstreamCalls: 0 };
    const refusal = gatewayError(
      "COST_LIMIT_EXCEEDED",
      `This operation could make ${estimated} upstream calls; the limit is ${maxUpstreamCalls}. ` +
        "Ask for smaller pages or fewer nested lists.",
      { cost: { ...cost, limit: maxUpstreamCalls } },
    );
    return { errors: [requestLevel(refusal)], extensions: { cost } };
  }

  return refuseBeforeRunning(judge, facts);
}
