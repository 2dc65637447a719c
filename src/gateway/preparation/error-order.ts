import type { ExecutionArgs, ExecutionResult, GraphQLError } from "graphql";
import type { Plugin, YogaLogger } from "graphql-yoga";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { isMasked } from "../shared/mask-error.ts";
import { onePerNull } from "./errors-per-null.ts";
import { type ResponseShape, responseShape } from "./response-shape.ts";

/**
 * An operation's errors as answered, whichever runtime ran it (docs/operations.md): in response
 * order, and one for each null they leave (errors-per-null.ts). graphql-js records errors as its
 * promises settle, graphql-jit in an order of its own, so neither order is one both give. The
 * spec leaves the order open; ordering each result by the place each error's path names in the
 * answer makes the two answer alike, byte for byte.
 * It comes after compiled execution, so it orders whichever runtime's result that gives. It wraps
 * the execute function rather than hook onExecuteDone: live queries run again through the
 * function their plugin is handed, later in the pipeline, so each later result is ordered too.
 */
export function useErrorOrder(documents: DocumentFactsCache): Plugin {
  let logger: YogaLogger | undefined;
  return {
    onYogaInit({ yoga }) {
      logger = yoga.logger;
    },
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (run: ExecutionArgs) => {
        const result = await executeFn(run);
        // A result in parts (@defer, @stream) keeps the order it is delivered in.
        if (Symbol.asyncIterator in result || (result.errors?.length ?? 0) < 2) return result;
        const shape = responseShape(run.schema, documents.of(run.document), run.operationName);
        const ordered = inResponseOrder(result, shape);
        if (shape === undefined) return ordered;
        const answered = onePerNull(ordered, shape);
        // Logged as yoga logs what it masks: a failure or a defect under a null still shows.
        const kept = new Set(answered.errors);
        for (const error of ordered.errors ?? []) {
          if (!kept.has(error) && isMasked(error)) logger?.error(error);
        }
        return answered;
      });
    },
  };
}

/**
 * The result, its errors ordered by their paths as the answer orders them: a field as its
 * response keys come, a list's items by index, an error without a path first. Where two paths
 * part under a null, which the answer does not order, as the document orders the keys, else by
 * the first location, then as recorded.
 */
export function inResponseOrder(result: ExecutionResult, shape?: ResponseShape): ExecutionResult {
  const errors = result.errors;
  if (errors === undefined || errors.length < 2) return result;
  const ordered = [...errors].sort((a, b) => compareErrors(result.data, shape, a, b));
  if (ordered.every((error, index) => error === errors[index])) return result;
  // The result's keys keep their order: serialization writes them in it.
  return { ...result, errors: ordered };
}

function compareErrors(
  data: unknown,
  shape: ResponseShape | undefined,
  a: GraphQLError,
  b: GraphQLError,
): number {
  if (a.path === undefined || b.path === undefined) {
    return (a.path === undefined ? 0 : 1) - (b.path === undefined ? 0 : 1);
  }
  let value = data;
  for (let depth = 0; depth < Math.max(a.path.length, b.path.length); depth++) {
    const keyA = a.path[depth];
    const keyB = b.path[depth];
    // A path that is the other's prefix: the field before what lies under it.
    if (keyA === undefined || keyB === undefined) return keyA === undefined ? -1 : 1;
    if (keyA !== keyB) {
      if (typeof keyA === "number" && typeof keyB === "number") return keyA - keyB;
      const keys =
        value !== null && typeof value === "object"
          ? Object.keys(value)
          : shape?.keysAt(a.path.slice(0, depth));
      const at = keys ? keys.indexOf(String(keyA)) - keys.indexOf(String(keyB)) : 0;
      return at !== 0 ? at : compareLocations(a, b);
    }
    value = value === null || typeof value !== "object" ? undefined : (value as never)[keyA];
  }
  return 0;
}

function compareLocations(a: GraphQLError, b: GraphQLError): number {
  const [at, bt] = [a.locations?.[0], b.locations?.[0]];
  if (at === undefined || bt === undefined) return 0;
  return at.line - bt.line || at.column - bt.column;
}
