import {
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  Kind,
} from "graphql";
import { getVariableValues } from "graphql/execution/values.js";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { gatewayError } from "../errors.ts";
import type { GatewayContext } from "./context.ts";
import { estimateUpstreamCalls } from "./estimate-upstream-calls.ts";
import { requestLevel } from "./http-status.ts";

export interface UpstreamBudgetOptions {
  /** Most upstream calls one operation may be estimated to make; default 200. */
  maxUpstreamCalls?: number;
}

/**
 * Judges an operation before it runs, so that a refused one makes no upstream call at all:
 * connection bounds, the static upstream-call estimate against `maxUpstreamCalls`, and the
 * API key, which only operations that reach the upstream need (introspection does not).
 */
export function useUpstreamBudget(options: UpstreamBudgetOptions = {}): Plugin<GatewayContext> {
  const maxUpstreamCalls = options.maxUpstreamCalls ?? 200;

  /** The refusal, and the cost figures to report beside it once the estimate is known. */
  function judge(args: ExecutionArgs): ExecutionResult | undefined {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return undefined; // execution reports it
    const coerced = getVariableValues(
      args.schema,
      operation.variableDefinitions ?? [],
      (args.variableValues ?? {}) as Record<string, unknown>,
    );
    // Variables that do not fit their types are the client's to fix: BAD_USER_INPUT, HTTP 400.
    if (coerced.errors) return { errors: coerced.errors.map(badVariable) };
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of args.document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION)
        fragments[definition.name.value] = definition;
    }
    let estimated: number;
    try {
      estimated = estimateUpstreamCalls({
        schema: args.schema,
        operation,
        fragments,
        variables: coerced.coerced,
      });
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [requestLevel(error)] };
      throw error;
    }
    const context = args.contextValue as GatewayContext;
    context.estimatedUpstreamCalls = estimated;
    // Refused operations report their cost too: nothing was called upstream.
    const extensions = { cost: { estimated, upstreamCalls: 0 } };
    if (estimated > maxUpstreamCalls) {
      const cost = { ...extensions.cost, limit: maxUpstreamCalls };
      const refusal = gatewayError(
        "COST_LIMIT_EXCEEDED",
        `This operation could make ${estimated} upstream calls; the limit is ${maxUpstreamCalls}. ` +
          "Ask for smaller pages or fewer nested lists.",
        { cost },
      );
      return { errors: [requestLevel(refusal)], extensions };
    }
    if (estimated > 0 && context.authorization === undefined) {
      const refusal = gatewayError(
        "UNAUTHENTICATED",
        "An API key is required: send the header `Authorization: Bearer <API key>`.",
      );
      return { errors: [requestLevel(refusal)], extensions };
    }
    return undefined;
  }

  return {
    onExecute({ args, setResultAndStopExecution }) {
      const rejection = judge(args);
      if (rejection) setResultAndStopExecution(rejection);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      // A subscription's context lives as long as it does: its polls, not a budget, bound it.
      (args.contextValue as GatewayContext).usage.limit = undefined;
      const rejection = judge(args);
      if (rejection) setResultAndStopExecution(rejection);
    },
  };
}

function badVariable(error: GraphQLError): GraphQLError {
  const coded = createGraphQLError(error.message, {
    nodes: error.nodes,
    extensions: { code: "BAD_USER_INPUT" },
  });
  return requestLevel(coded);
}
