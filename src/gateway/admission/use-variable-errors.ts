import { type ExecutionArgs, type GraphQLError, getVariableValues, Kind } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import { factFlow } from "../execution/operation-facts.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
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
  const argument = variablePathOf(error);
  const coded = createGraphQLError(error.message, {
    nodes: error.nodes,
    extensions: { code: "BAD_USER_INPUT", ...(argument === undefined ? {} : { argument }) },
  });
  return requestLevel(coded);
}

/**
 * The variable an error is about, as `argument` names it (`$first`, `$input.name`, `$ids[1]`):
 * graphql-js gives the variable's definition as the error's node, and the path inside the value
 * only in its message (`at "input.name"`).
 */
function variablePathOf(error: GraphQLError): string | undefined {
  const node = error.nodes?.[0];
  if (node?.kind !== Kind.VARIABLE_DEFINITION) return undefined;
  const name = node.variable.name.value;
  const inside = / at "([^"]*)"; /.exec(error.message)?.[1];
  const path = inside?.startsWith(name) ? inside : name;
  return path.length > 120 ? `$${path.slice(0, 120)}…` : `$${path}`;
}
