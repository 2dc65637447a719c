import {
  type ExecutionArgs,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  Kind,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../errors.ts";
import type { GatewayContext } from "./context.ts";
import { GATEWAY_DEFAULTS } from "./defaults.ts";
import { estimateUpstreamCalls } from "./estimate-upstream-calls.ts";
import { requestLevel } from "./http-status.ts";
import { catalogueErrorOf } from "./mask-error.ts";
import { factsOf } from "./operation-facts.ts";
import { refuseBeforeRunning } from "./refuse-before-running.ts";

export interface CostLimitOptions {
  /** Most upstream calls one operation may be estimated to make; default 200. */
  maxUpstreamCalls?: number;
}

/**
 * The static cost check: connection bounds, and the upstream-call estimate against
 * `maxUpstreamCalls`, before any upstream call (the runtime budget in the context backs it).
 * A subscription's context outlives its events: its polls, not the runtime budget, bound it.
 */
export function useCostLimit(options: CostLimitOptions = {}): Plugin {
  const maxUpstreamCalls = options.maxUpstreamCalls ?? GATEWAY_DEFAULTS.maxUpstreamCalls;

  function judge(args: ExecutionArgs) {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return undefined;
    if (operation.operation === "subscription") {
      (args.contextValue as unknown as GatewayContext).usage.limit = undefined;
    }
    const facts = factsOf(args.contextValue as object);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of args.document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        fragments[definition.name.value] = definition;
      }
    }
    let estimated: number;
    try {
      estimated = estimateUpstreamCalls({
        schema: args.schema,
        operation,
        fragments,
        variables: facts.variables ?? {},
      });
    } catch (error) {
      const refusal =
        catalogueErrorOf(error) ?? (error instanceof GraphQLError ? error : undefined);
      if (refusal) return { errors: [requestLevel(refusal)] };
      throw error;
    }
    facts.estimatedUpstreamCalls = estimated;
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

  return refuseBeforeRunning(judge);
}
