import { type ExecutionArgs, Kind, type OperationDefinitionNode } from "graphql";
import { gatewayError } from "../../errors.ts";
import { isKeylessRootField } from "../../schema/keyless-fields.ts";
import type { GatewayContext } from "../execution/context.ts";
import { factFlow } from "../execution/operation-facts.ts";
import type { DocumentFacts, DocumentFactsCache } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import { type JudgingPlugin, refuseBeforeRunning } from "./refuse-before-running.ts";

/**
 * Every operation needs a key (or a session) before it runs: without one it is
 * UNAUTHENTICATED, HTTP 401, with no upstream call. Only an operation whose root fields are all
 * introspection's or on the schema's keyless list (schema/keyless-fields.ts) runs without one:
 * the rule never asks the cost estimate, so a field that forgot to declare its calls is still
 * behind the key.
 */
export function useApiKeyGate(documents: DocumentFactsCache): JudgingPlugin {
  // The refusal reports the estimate, as every refusal before running does.
  const facts = factFlow({ reads: ["estimatedUpstreamCalls"] });
  function judge(args: ExecutionArgs) {
    if ((args.contextValue as unknown as GatewayContext).authorization !== undefined) return;
    const document = documents.of(args.document);
    const operation = document.operation(args.operationName);
    const rootType = operation && args.schema.getRootType(operation.operation)?.name;
    if (operation && rootType && keyless(document, operation, rootType)) return;
    const refusal = gatewayError(
      "UNAUTHENTICATED",
      "An API key is required: send the header `Authorization: Bearer <API key>`.",
    );
    const estimated = facts.read(args.contextValue as object, "estimatedUpstreamCalls");
    return {
      errors: [requestLevel(refusal)],
      extensions: { cost: { estimated, upstreamCalls: 0 } },
    };
  }
  return refuseBeforeRunning(judge, facts);
}

/** Whether every root field the operation selects, through any fragment, may run keyless. */
function keyless(
  facts: DocumentFacts,
  operation: OperationDefinitionNode,
  rootType: string,
): boolean {
  const seen = new Set<string>();
  const walk = (selections: OperationDefinitionNode["selectionSet"]["selections"]): boolean =>
    selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return isKeylessRootField(rootType, selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return walk(selection.selectionSet.selections);
      const name = selection.name.value;
      if (seen.has(name)) return true;
      seen.add(name);
      const fragment = facts.fragments.get(name);
      // An unknown fragment fails validation before this runs; refusing it costs nothing.
      return fragment !== undefined && walk(fragment.selectionSet.selections);
    });
  return walk(operation.selectionSet.selections);
}
