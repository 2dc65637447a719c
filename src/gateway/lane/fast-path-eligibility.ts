import { type DocumentNode, parse } from "graphql";
import { LRUCache } from "lru-cache";
import { documentFactsOf } from "../shared/document-facts.ts";

/** Media types of a whole JSON answer: an Accept header of only these asks for no stream. */
const JSON_TYPES: ReadonlySet<string> = new Set([
  "application/json",
  "application/graphql-response+json",
  "*/*",
]);

/** Whether an Accept header asks only for a JSON answer (no SSE, no multipart). */
export function isJsonOnly(accept: string): boolean {
  for (const range of accept.split(",")) {
    const type = (range.split(";")[0] ?? "").trim().toLowerCase();
    if (!JSON_TYPES.has(type)) return false;
  }
  return true;
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

/** Text the fast path's per-text caches keep in all, how many texts, and the largest text kept. */
export const FAST_PATH_TEXT_BYTES = 8 * 1024 * 1024;
export const FAST_PATH_TEXTS = 1000;
export const FAST_PATH_MAX_KEPT_TEXT = 64 * 1024;

export function createEligibility(maxTokens: number): Eligibility {
  // Per document text, bounded in count and in the text kept (an attacker's texts evict each
  // other); false where the text does not parse.
  const known = new LRUCache<string, Kinds | false>({
    max: FAST_PATH_TEXTS,
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
      // `@defer`/`@stream` stays yoga's: incremental delivery.
      if (facts === false || facts.incremental) return undefined;
      return operationName === null ? facts.only : facts.named.get(operationName);
    },
  };
}

/**
 * The operation kinds of a text, from the facts yoga's plugins read of a document (its parse is
 * this check's own, and only the kinds are kept, not the tree).
 */
interface Kinds {
  /** Kinds of the named operations, by name. */
  named: ReadonlyMap<string, string>;
  /** The kind of the operation chosen when no name is given: the only one, if there is one. */
  only: string | undefined;
  incremental: boolean;
}

function factsOf(text: string, maxTokens: number): Kinds | false {
  let document: DocumentNode;
  try {
    // Past the gateway's own limit, yoga's parser refuses it: nothing more is spent here.
    document = parse(text, { noLocation: true, maxTokens });
  } catch {
    return false;
  }
  const facts = documentFactsOf(document);
  const named = new Map<string, string>();
  for (const operation of facts.operations) {
    const name = operation.name?.value;
    if (name !== undefined && !named.has(name)) named.set(name, operation.operation);
  }
  return { named, only: facts.operation(null)?.operation, incremental: facts.incremental };
}
