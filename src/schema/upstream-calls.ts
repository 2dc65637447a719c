import { listOf, type OperationName } from "../upstream/operations.ts";

/**
 * What a field declares, in its `extensions`, about the upstream calls it makes: read from the
 * operations table (upstream/operations.ts), so a field names the operations it calls and the
 * cost limit (gateway/admission/estimate-upstream-calls.ts) reads the settings. Each row is one call.
 */

/** A field that calls each of these operations once. */
export function callsOf(...operations: OperationName[]): { upstreamCalls: number } {
  return { upstreamCalls: operations.length };
}

/**
 * A Relay connection over a list operation: at most the calls of one window, and its default
 * page size, which multiplies what is selected inside it. Cursor-form lists page forward only.
 */
export function connectionOf(operation: OperationName): {
  upstreamCalls: number;
  connection: { defaultSize: number; forwardOnly?: boolean };
} {
  const list = listOf(operation);
  return {
    upstreamCalls: list.windowCalls,
    connection: {
      defaultSize: list.defaultSize,
      ...(list.form === "cursor" ? { forwardOnly: true } : {}),
    },
  };
}

/** What the connection adapter needs of a list operation: its assumed form and page sizes. */
export function listSourceOf(operation: OperationName): {
  assumedForm: "page" | "cursor" | "offset";
  defaultSize: number;
  maxSize: number;
  isItem: (value: unknown) => boolean;
} {
  const list = listOf(operation);
  return {
    assumedForm: list.form,
    defaultSize: list.defaultSize,
    maxSize: list.maxSize,
    isItem: isResource,
  };
}

/**
 * Every REST list holds resources: a value of another kind would be taken for an ID by the
 * schema's loadable types and loaded (a number in a conversation page would become
 * GET /v1/conversations/5/status). A null item is refused where it stands, by its field.
 */
function isResource(value: unknown): boolean {
  return value === null || (typeof value === "object" && !Array.isArray(value));
}
