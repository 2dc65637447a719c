import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type Source,
} from "graphql";
import { type CompiledQuery, isCompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";
import { type FactFlow, factFlow } from "../execution/operation-facts.ts";
import type { DocumentFacts, DocumentFactsCache } from "../shared/document-facts.ts";
import { type CriticalFirst, criticalFirst } from "./critical-first.ts";
import { createJitCompiler } from "./graphql-jit-adapter.ts";
import { asGraphqlJsResult } from "./jit-errors.ts";
import { hasVariableInScalarLiteral } from "./scalar-literal-variables.ts";

export interface CompiledExecutionOptions {
  /**
   * The run of a document (a text yoga's parser cache hands back as one object) at which it is
   * compiled, and every later run runs compiled; 0: never (COMPILED_EXECUTION_AFTER).
   */
  after: number;
  /** Told how each query ran: compiled, or by graphql-js (not compiled, or not yet). */
  onRun?: (how: CompiledRun) => void;
  /**
   * Milliseconds of compiling allowed per second, on average (a bucket that holds one second's
   * worth): past it, documents run on graphql-js until the budget refills.
   */
  compileMsPerSecond: number;
  /** The gateway's facts of each document. */
  documents: DocumentFactsCache;
  now?: () => number;
}

/**
 * The most fields an operation may select, its fragments expanded, to be compiled: compiling
 * costs about 30 µs a field on this machine (bench/profile.md), so one compilation stays under
 * about 15 ms, and a document whose fragments multiply is never compiled.
 */
export const MAX_COMPILED_FIELDS = 500;

/** `compiled`: graphql-jit answered. `interpreted`: graphql-js did. */
export type CompiledRun = "compiled" | "interpreted";

/** The compiled queries of the documents yoga has run. */
export interface CompiledQueries {
  /** The operation's compiled query once it has been compiled; undefined before, or never. */
  compiledOf(document: DocumentNode, operationName: string | null): CompiledQuery | undefined;
}

/** What is known of one document: how often it ran, and its compiled operations once compiled. */
interface DocumentState {
  runs: number;
  /** By operation name; null where graphql-jit cannot compile it (graphql-js runs it always). */
  compiled: Map<string, CompiledQuery | null>;
}

/**
 * Compiled execution (graphql-jit) for the queries clients send again and again, answering
 * exactly as graphql-js does (docs/operations.md):
 *
 * - A query runs once, errors or not: the compiled run's errors are made as graphql-js makes
 *   them (jit-errors.ts), so masking, the catalogue, `locations` and null propagation are
 *   graphql-js's, and every query's errors, whichever runtime ran it, come in response order and
 *   one for each null they leave (error-order.ts). compiled-execution.test.ts,
 *   jit-errors.property.test.ts and the fast path's differential test hold the two runtimes to
 *   the same bytes, errors included.
 * - Mutations (their fields must not run twice), subscriptions, `@defer`/`@stream` and
 *   introspection always run on graphql-js.
 * - Its root fields run the one that leads to the most upstream calls first (critical-first.ts),
 *   and the answer keeps the document's order.
 * - A document is compiled at its `after`-th run, so a text sent once costs no compilation; the
 *   state lives as long as yoga's parser cache keeps the document (a WeakMap), so it is bounded
 *   as that cache is, and a document too large to cache is never compiled.
 * - A variable inside a custom scalar's literal (`_entities`' representations) runs on
 *   graphql-js, which alone hands the scalar the variables (scalar-literal-variables.ts).
 * - What compiling may cost is bounded: an operation of more than MAX_COMPILED_FIELDS fields
 *   (fragments expanded) is never compiled, and compiling spends at most `compileMsPerSecond`
 *   on average; past it, queries run on graphql-js, as they would without this plugin.
 */
const COMPILED_FACTS = factFlow({ takes: ["laneResult"] });

export function useCompiledExecution(
  options: CompiledExecutionOptions,
): Plugin & CompiledQueries & { facts: FactFlow } {
  const documents = new WeakMap<DocumentNode, DocumentState>();
  const compileQuery = createJitCompiler();
  const now = options.now ?? performance.now.bind(performance);
  const perSecond = options.compileMsPerSecond;
  let budgetMs = perSecond;
  let refilledAt = now();

  /** Whether the compile budget has time left, refilled for the time gone by. */
  function budgetLeft(): boolean {
    const at = now();
    budgetMs = Math.min(perSecond, budgetMs + ((at - refilledAt) / 1000) * perSecond);
    refilledAt = at;
    return budgetMs > 0;
  }

  function compiledFor(
    args: ExecutionArgs,
    operation: OperationDefinitionNode,
    facts: DocumentFacts,
  ): CompiledQuery | undefined {
    let state = documents.get(args.document);
    if (state === undefined) {
      // graphql-js runs `@defer`/`@stream` and introspection.
      if (facts.incremental || facts.introspective) return undefined;
      state = { runs: 0, compiled: new Map() };
      documents.set(args.document, state);
    }
    state.runs += 1;
    if (state.runs < options.after) return undefined;
    const name = args.operationName ?? "";
    let compiled = state.compiled.get(name);
    if (compiled === undefined) {
      if (
        fieldsOf(facts.fragments, operation) > MAX_COMPILED_FIELDS ||
        hasVariableInScalarLiteral(args.schema, args.document)
      ) {
        state.compiled.set(name, null);
        return undefined;
      }
      // Over budget: graphql-js runs it now, and a later run compiles it when time is left.
      if (!budgetLeft()) return undefined;
      const started = now();
      const order = criticalFirst(
        args.schema,
        args.document,
        operation,
        facts.fragments,
        args.variableValues ?? {},
      );
      const outcome = compileQuery(
        args.schema,
        order?.document ?? args.document,
        args.operationName ?? undefined,
      );
      budgetMs -= now() - started;
      compiled = isCompiledQuery(outcome)
        ? withGraphqlJsErrors(inDocumentOrder(outcome, order), args.document.loc?.source)
        : null;
      state.compiled.set(name, compiled);
    }
    return compiled ?? undefined;
  }

  return {
    facts: COMPILED_FACTS,
    compiledOf(document, operationName) {
      return documents.get(document)?.compiled.get(operationName ?? "") ?? undefined;
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      if (options.after <= 0) return;
      const facts = options.documents.of(args.document);
      const operation = facts.operation(args.operationName);
      if (operation?.operation !== "query") return;
      setExecuteFn(async (run: ExecutionArgs) => {
        // A later plugin may run another form of the document (incremental delivery's whole form).
        const runFacts =
          run.document === args.document ? facts : options.documents.of(run.document);
        // The prepared lane ran it compiled already and met an error: its result is this run's.
        const handed = COMPILED_FACTS.take(run.contextValue as object, "laneResult");
        if (handed !== undefined) {
          options.onRun?.("compiled");
          return handed;
        }
        const runOperation = runFacts.operation(run.operationName);
        const compiled = runOperation ? compiledFor(run, runOperation, runFacts) : undefined;
        if (compiled === undefined) {
          options.onRun?.("interpreted");
          return executeFn(run);
        }
        options.onRun?.("compiled");
        return compiled.query(run.rootValue, run.contextValue, run.variableValues) as
          | ExecutionResult
          | Promise<ExecutionResult>;
      });
    },
  };
}

/** The compiled query, answering its root fields in the document's order whatever order they ran in. */
function inDocumentOrder(compiled: CompiledQuery, order: CriticalFirst | undefined): CompiledQuery {
  if (order === undefined) return compiled;
  const run = compiled.query;
  return {
    ...compiled,
    query: (root, context, variables) => {
      const result = run(root, context, variables);
      return "then" in result ? result.then(order.restore) : order.restore(result);
    },
  };
}

/** The compiled query, its errors as graphql-js makes them (jit-errors.ts). */
function withGraphqlJsErrors(compiled: CompiledQuery, source: Source | undefined): CompiledQuery {
  const run = compiled.query;
  return {
    ...compiled,
    query: (root, context, variables) => {
      const result = run(root, context, variables);
      return "then" in result
        ? result.then((settled) => asGraphqlJsResult(settled, source))
        : asGraphqlJsResult(result, source);
    },
  };
}

/**
 * The fields the operation selects, each fragment spread counted at each place it is spread (as
 * graphql-jit compiles it); counting stops past MAX_COMPILED_FIELDS, so this walk is bounded too.
 */
function fieldsOf(
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  operation: OperationDefinitionNode,
): number {
  let count = 0;
  const walk = (set: SelectionSetNode): void => {
    for (const selection of set.selections) {
      if (count > MAX_COMPILED_FIELDS) return;
      if (selection.kind === Kind.FIELD) {
        count += 1;
        if (selection.selectionSet) walk(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return count;
}
