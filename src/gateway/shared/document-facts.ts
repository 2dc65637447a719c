import {
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  print,
  visit,
} from "graphql";

/**
 * What the plugins ask of one parsed document, worked out in one walk: its operations, its
 * fragments, whether it asks for parts (`@defer`/`@stream`) or introspects. Every plugin reads
 * these instead of walking the document again.
 */
export interface DocumentFacts {
  /** Every operation, in document order. */
  readonly operations: readonly OperationDefinitionNode[];
  /** Fragment definitions by name. */
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** Whether `@defer` or `@stream` appears anywhere in it. */
  readonly incremental: boolean;
  /** Whether it selects `__schema` or `__type`. */
  readonly introspective: boolean;
  /**
   * The operation `operationName` selects, as graphql-js's getOperationAST picks it: by name,
   * or the only one when no name is given; undefined otherwise.
   */
  operation(operationName: string | null | undefined): OperationDefinitionNode | undefined;
  /** The document printed (what makes two subscribers' selections the same); printed once, on first ask. */
  readonly text: string;
  /** The document without `@defer` and `@stream` (the same object when it has neither); made once, on first ask. */
  readonly wholeForm: DocumentNode;
}

/** The facts of one document, worked out now (createDocumentFacts keeps them per document). */
export function documentFactsOf(document: DocumentNode): DocumentFacts {
  const operations: OperationDefinitionNode[] = [];
  const byName = new Map<string, OperationDefinitionNode>();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      operations.push(definition);
      const name = definition.name?.value;
      if (name !== undefined && !byName.has(name)) byName.set(name, definition);
    } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      if (!fragments.has(definition.name.value)) fragments.set(definition.name.value, definition);
    }
  }
  let incremental = false;
  let introspective = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === "defer" || node.name.value === "stream") incremental = true;
    },
    Field(node) {
      if (node.name.value === "__schema" || node.name.value === "__type") introspective = true;
    },
  });
  let text: string | undefined;
  let wholeForm: DocumentNode | undefined;
  return {
    operations,
    fragments,
    incremental,
    introspective,
    operation(operationName) {
      if (operationName == null) return operations.length === 1 ? operations[0] : undefined;
      return byName.get(operationName);
    },
    get text() {
      text ??= print(document);
      return text;
    },
    get wholeForm() {
      wholeForm ??= incremental ? withoutIncrementalDirectives(document) : document;
      return wholeForm;
    },
  };
}

/** One gateway's facts of the documents it has seen, each worked out once. */
export interface DocumentFactsCache {
  of(document: DocumentNode): DocumentFacts;
  /** How many documents' facts were worked out (not found kept): for tests and nothing else. */
  readonly computed: number;
}

/**
 * Facts kept per document object, which yoga's parser cache hands back for the same text, and
 * gone with it. One per gateway (createGateway), never one per process.
 */
export function createDocumentFacts(): DocumentFactsCache {
  const known = new WeakMap<DocumentNode, DocumentFacts>();
  let computed = 0;
  return {
    of(document) {
      let facts = known.get(document);
      if (facts === undefined) {
        facts = documentFactsOf(document);
        computed += 1;
        known.set(document, facts);
      }
      return facts;
    },
    get computed() {
      return computed;
    },
  };
}

function withoutIncrementalDirectives(document: DocumentNode): DocumentNode {
  return visit(document, {
    [Kind.DIRECTIVE]: (node) =>
      node.name.value === "defer" || node.name.value === "stream" ? null : undefined,
  });
}

/**
 * What makes two subscribers' results the same: the document, the operation and the variables
 * (live queries add the key).
 */
export function selectionKey(
  documents: DocumentFactsCache,
  args: Pick<ExecutionArgs, "document" | "operationName" | "variableValues">,
): string {
  return JSON.stringify([
    documents.of(args.document).text,
    args.operationName ?? null,
    args.variableValues ?? null,
  ]);
}
