import {
  type ArgumentNode,
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  type OperationDefinitionNode,
  TypeInfo,
  valueFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { createGraphQLError } from "graphql-yoga";
import { badUserInput } from "../../errors.ts";
import { type IdRule, idProblem, nullProblem } from "../../schema/ids.ts";
import { factFlow } from "../execution/operation-facts.ts";
import type { DocumentFacts, DocumentFactsCache } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import { type JudgingPlugin, refuseBeforeRunning } from "./refuse-before-running.ts";

/**
 * Arguments the schema declares rules for, judged for the whole operation before it runs: an ID
 * that cannot be one (over MAX_ID_LENGTH, or without its argument's prefix: `idRule`) and an
 * explicit `null` in an input type that refuses it (`refusesNull`). Inline values and variables
 * alike: BAD_USER_INPUT, HTTP 400, naming the argument's path, and nothing goes upstream.
 */
export function useInputRules(documents: DocumentFactsCache): JudgingPlugin {
  const facts = factFlow({ reads: ["variables"] });
  // yoga's parse cache hands back the same document for the same text: its argument sites are
  // found once per operation name, and an operation without any is judged at no cost.
  const sitesByDocument = new WeakMap<DocumentNode, Map<string, Site[]>>();

  function sitesOf(args: ExecutionArgs): Site[] {
    let byName = sitesByDocument.get(args.document);
    if (byName === undefined) {
      byName = new Map();
      sitesByDocument.set(args.document, byName);
    }
    const key = args.operationName ?? "";
    let sites = byName.get(key);
    if (sites === undefined) {
      sites = findSites(args.schema, documents.of(args.document), args.operationName);
      byName.set(key, sites);
    }
    return sites;
  }

  function judge(args: ExecutionArgs) {
    const sites = sitesOf(args);
    if (sites.length === 0) return undefined;
    // Coerced by use-variable-errors.ts, which runs before: a variable reads as its type holds it.
    const variables = facts.read(args.contextValue as object, "variables");
    for (const { argument, node } of sites) {
      const value = valueFromAST(node.value, argument.type, variables);
      if (value === undefined) continue; // absent, or refused by coercion already
      const problem = valueProblem(value, argument.type, argument.name, ruleOf(argument));
      if (problem) return { errors: [refusal(problem, node)] };
    }
    return undefined;
  }

  return refuseBeforeRunning(judge, facts);
}

function refusal(problem: Problem, node: ArgumentNode): GraphQLError {
  const error = badUserInput(problem.message, { argument: problem.argument });
  return requestLevel(
    createGraphQLError(error.message, { nodes: node, extensions: error.extensions }),
  );
}

interface Site {
  argument: GraphQLArgument;
  node: ArgumentNode;
}

interface Problem {
  message: string;
  argument: string;
}

function ruleOf(holder: { extensions: Readonly<Record<string, unknown>> }): IdRule {
  return (holder.extensions.idRule as IdRule | undefined) ?? "any";
}

/** The arguments, in document order, of the operation and the fragments it spreads, that a rule covers. */
function findSites(
  schema: GraphQLSchema,
  facts: DocumentFacts,
  operationName: string | null | undefined,
): Site[] {
  const operation = facts.operation(operationName);
  if (operation === undefined) return []; // execution reports it
  const { fragments } = facts;
  const sites: Site[] = [];
  const walked = new Set<string>();
  const pending: Array<OperationDefinitionNode | FragmentDefinitionNode> = [operation];
  while (pending.length > 0) {
    const definition = pending.shift() as OperationDefinitionNode | FragmentDefinitionNode;
    const typeInfo = new TypeInfo(schema);
    visit(
      definition,
      visitWithTypeInfo(typeInfo, {
        Argument(node) {
          const argument = typeInfo.getArgument();
          if (argument && covered(argument.type)) sites.push({ argument, node });
        },
        FragmentSpread(node) {
          const name = node.name.value;
          const fragment = fragments.get(name);
          if (fragment && !walked.has(name)) {
            walked.add(name);
            pending.push(fragment);
          }
        },
      }),
    );
  }
  return sites;
}

/** Whether a rule can apply to a value of this type: it holds an ID or a null-refusing input. */
function covered(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (named.name === "ID") return true;
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  if (named.extensions.refusesNull === true) return true;
  seen.add(named.name);
  return Object.values(named.getFields()).some((field) => covered(field.type, seen));
}

/** The first rule a coerced value breaks, depth first in input order, with its path. */
function valueProblem(
  value: unknown,
  type: GraphQLInputType,
  path: string,
  rule: IdRule,
): Problem | undefined {
  if (value === null) return undefined; // where null is refused, its input object says so
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = Array.isArray(value) ? value : [value];
    for (const [index, item] of items.entries()) {
      const problem = valueProblem(item, nullable.ofType, `${path}[${index}]`, rule);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isInputObjectType(nullable)) {
    const fields = nullable.getFields();
    const refusesNull = nullable.extensions.refusesNull === true;
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      const field = fields[name];
      if (field === undefined || member === undefined) continue;
      const at = `${path}.${name}`;
      if (member === null && refusesNull) return { message: nullProblem(at), argument: at };
      const problem = valueProblem(member, field.type, at, ruleOf(field));
      if (problem) return problem;
    }
    return undefined;
  }
  if (nullable.name === "ID" && typeof value === "string") {
    const message = idProblem(rule, value, path);
    return message === undefined ? undefined : { message, argument: path };
  }
  return undefined;
}
