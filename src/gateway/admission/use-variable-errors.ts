import { type ExecutionArgs, type GraphQLError, getVariableValues } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import type { DocumentFactsCache } from "../document-facts.ts";
import { factFlow } from "../execution/operation-facts.ts";
import { requestLevel } from "../http-status.ts";
import { compiledVariablesOf, failToParseVariables } from "./compiled-variables.ts";
import { type JudgingPlugin, refuseBeforeRunning } from "./refuse-before-running.ts";

/**
 * Variables that do not fit their types are the client's to fix: BAD_USER_INPUT, HTTP 400, before
 * anything runs. The coerced variables are kept for the plugins after it (the cost estimate).
 */
export function useVariableErrors(documents: DocumentFactsCache): JudgingPlugin {
  const facts = factFlow({ produces: ["variables"] });
  function judge(args: ExecutionArgs) {
    const inputs = (args.variableValues ?? {}) as Record<string, unknown>;
    const operation = documents.of(args.document).operation(args.operationName);
    if (!operation) {
      // Execution reports the missing operation; nothing of it reads a variable.
      facts.produce(args.contextValue as object, "variables", {});
      return undefined;
    }
    const compiled = compiledVariablesOf(args.schema, operation)?.(inputs);
    if (compiled !== undefined && !failToParseVariables(compiled)) {
      facts.produce(args.contextValue as object, "variables", compiled.coerced);
      return undefined;
    }
    // graphql-js's errors name the value's path and carry locations: the client's to read.
    const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], inputs);
    if (coerced.errors) return { errors: coerced.errors.map(badVariable) };
    facts.produce(args.contextValue as object, "variables", coerced.coerced);
    return undefined;
  }
  return refuseBeforeRunning(judge, facts);
}

function badVariable(error: GraphQLError): GraphQLError {
  const coded = createGraphQLError(error.message, {
    nodes: error.nodes,
    extensions: { code: "BAD_USER_INPUT" },
  });
  return requestLevel(coded);
}
