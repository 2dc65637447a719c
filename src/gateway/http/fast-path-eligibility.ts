import { type DocumentNode, Kind, parse, visit } from "graphql";
import { LRUCache } from "lru-cache";

/** Media types of a whole JSON answer: an Accept header of only these asks for no stream. */
const JSON_TYPES = new Set(["application/json", "application/graphql-response+json", "*/*"]);

/** Whether an Accept header asks only for a JSON answer (no SSE, no multipart). */
export function isJsonOnly(accept: string): boolean {
  for (const range of accept.split(",")) {
    const type = (range.split(";")[0] ?? "").trim().toLowerCase();
    if (!JSON_TYPES.has(type)) return false;
  }
  return true;
}

/** What the fast path needs to know of a document: each operation's kind, by name. */
interface DocumentFacts {
  /** Operation kinds by name ("" for an anonymous one); undefined when the text does not parse. */
  operations: Map<string, string> | undefined;
  /** Whether `@defer` or `@stream` appears: incremental delivery stays yoga's. */
  incremental: boolean;
}

/** The fast path's judgement of document texts: one per gateway, with the gateway's token limit. */
export interface Eligibility {
  /**
   * The kind ("query", "mutation", "subscription") of the operation `operationName` selects, as
   * graphql-js's getOperationAST picks it; undefined when the text does not parse (or passes
   * MAX_TOKENS), names no such operation, or uses `@defer`/`@stream`. The parse is only this
   * check's: yoga parses, validates and costs the document itself, so every rule still runs.
   */
  operationKindOf(text: string, operationName: string | null): string | undefined;
}

/** Text the fast path's per-text cache keeps in all, and the largest text it keeps. */
export const FAST_PATH_TEXT_BYTES = 8 * 1024 * 1024;
export const FAST_PATH_MAX_KEPT_TEXT = 64 * 1024;

export function createEligibility(maxTokens: number): Eligibility {
  // Per document text, bounded in count and in the text kept (an attacker's texts evict each other).
  const known = new LRUCache<string, DocumentFacts>({
    max: 1000,
    maxSize: FAST_PATH_TEXT_BYTES,
    // A large text is judged again each time, never kept (docs/limits.md).
    maxEntrySize: FAST_PATH_MAX_KEPT_TEXT,
    sizeCalculation: (_facts, text) => Math.max(1, text.length),
  });
  return {
    operationKindOf(text, operationName) {
      let facts = known.get(text);
      if (facts === undefined) {
        facts = factsOf(text, maxTokens);
        known.set(text, facts);
      }
      if (facts.operations === undefined || facts.incremental) return undefined;
      if (operationName !== null) {
        return operationName === "" ? undefined : facts.operations.get(operationName);
      }
      if (facts.operations.size !== 1) return undefined;
      return facts.operations.values().next().value;
    },
  };
}

function factsOf(text: string, maxTokens: number): DocumentFacts {
  let document: DocumentNode;
  try {
    // Past the gateway's own limit, yoga's parser refuses it: nothing more is spent here.
    document = parse(text, { noLocation: true, maxTokens });
  } catch {
    return { operations: undefined, incremental: false };
  }
  const operations = new Map<string, string>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      operations.set(definition.name?.value ?? "", definition.operation);
    }
  }
  let incremental = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === "defer" || node.name.value === "stream") incremental = true;
    },
  });
  return { operations, incremental };
}
