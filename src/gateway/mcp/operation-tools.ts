import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  TokenKind,
  validate,
} from "graphql";
import { OPERATIONS } from "../../upstream/operations.ts";
import { dataSchema, type JsonSchema, variablesSchema } from "./json-schemas.ts";

/** One named operation offered as an MCP tool. */
export interface OperationTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
  /** The document sent to /graphql, as written (the trusted documents' text is matched as is). */
  document: string;
  operationName: string;
}

/** What building a catalogue skipped, and why, for the log. */
export type Skipped = string[];

/**
 * The tools of one document: each named query (and mutation, when allowed) whose variables and
 * selection can be stated in JSON Schema. Subscriptions and anonymous operations are no tools.
 */
export function toolsOfDocument(
  text: string,
  schema: GraphQLSchema,
  options: { mutations: boolean; origin: string },
  skipped: Skipped,
): OperationTool[] {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    skipped.push(`${options.origin}: ${(error as Error).message}`);
    return [];
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) {
    skipped.push(`${options.origin}: ${invalid[0]?.message}`);
    return [];
  }
  const fragments = new Map(
    document.definitions
      .filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION)
      .map((node) => [node.name.value, node]),
  );
  return document.definitions.flatMap((node) => {
    if (node.kind !== Kind.OPERATION_DEFINITION || !node.name) return [];
    if (node.operation === "subscription") return [];
    if (node.operation === "mutation" && !options.mutations) return [];
    try {
      return [toolOf(node, text, schema, fragments)];
    } catch (error) {
      skipped.push(`${options.origin} ${node.name.value}: ${(error as Error).message}`);
      return [];
    }
  });
}

function toolOf(
  operation: OperationDefinitionNode,
  text: string,
  schema: GraphQLSchema,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): OperationTool {
  const name = operation.name?.value as string;
  const query = operation.operation === "query";
  return {
    name,
    description: leadingComment(operation) ?? rootFieldDescriptions(operation, schema),
    inputSchema: variablesSchema(schema, operation),
    outputSchema: dataSchema(schema, operation, fragments),
    annotations: {
      readOnlyHint: query,
      destructiveHint: !query && deletes(operation),
      idempotentHint: query,
    },
    document: text,
    operationName: name,
  };
}

/** The `#` lines right above the operation, as the author wrote them for its readers. */
function leadingComment(operation: OperationDefinitionNode): string | undefined {
  const lines: string[] = [];
  let token = operation.loc?.startToken.prev;
  let line = operation.loc?.startToken.line ?? 0;
  while (token && token.kind === TokenKind.COMMENT && token.line === line - 1) {
    lines.unshift((token.value ?? "").trim());
    line = token.line;
    token = token.prev;
  }
  const text = lines.join(" ").trim();
  return text === "" ? undefined : text;
}

/** Else what the schema says of the root fields it selects. */
function rootFieldDescriptions(operation: OperationDefinitionNode, schema: GraphQLSchema): string {
  const root = schema.getRootType(operation.operation);
  const fields = root?.getFields() ?? {};
  const said = operation.selectionSet.selections.flatMap((node) =>
    node.kind === Kind.FIELD && fields[node.name.value]?.description
      ? [`${node.name.value}: ${fields[node.name.value]?.description}`]
      : [],
  );
  return said.length > 0 ? said.join("\n") : `The ${operation.operation} ${operation.name?.value}.`;
}

/** Whether a root field of the mutation is a REST DELETE by the operations table. */
function deletes(operation: OperationDefinitionNode): boolean {
  const rows: Record<string, { method: string }> = OPERATIONS;
  return operation.selectionSet.selections.some(
    (node) => node.kind === Kind.FIELD && rows[node.name.value]?.method === "DELETE",
  );
}
