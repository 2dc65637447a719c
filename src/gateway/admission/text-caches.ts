import type { DocumentNode } from "graphql";
import { LRUCache } from "lru-cache";

/**
 * Heap bytes one character of document text costs once parsed: graphql-js's AST with locations
 * measured at about 81 bytes per character (a 27 kB document of 300 fields), rounded up.
 */
export const AST_BYTES_PER_CHARACTER = 96;

export interface TextCacheBounds {
  /** Estimated heap bytes each cache may hold (DOCUMENT_CACHE_MAX_BYTES). */
  documentCacheMaxBytes: number;
  /** A document text longer than this is never cached (MAX_CACHED_DOCUMENT_BYTES). */
  maxCachedDocumentBytes: number;
}

/** A cache keyed by request text, bounded in entries, in estimated bytes and per entry. */
function textKeyedCache<V extends {}>(bounds: TextCacheBounds, bytesPerCharacter: number) {
  const cache = new LRUCache<string, V>({
    max: 1000,
    maxSize: bounds.documentCacheMaxBytes,
    sizeCalculation: (_value, text) => Math.max(1, text.length * bytesPerCharacter),
  });
  return {
    get: (text: string) => cache.get(text),
    set(text: string, value: V) {
      // Over the bound a document is parsed again each time it comes: no caller can pin it.
      if (text.length > bounds.maxCachedDocumentBytes) return;
      cache.set(text, value);
    },
  };
}

/**
 * yoga's parse caches (`parserAndValidationCache`), bounded in bytes, not only in entries: its
 * defaults keep 1,000 documents and 1,000 parse errors of any size, keyed by their text, so a
 * caller without a key could pin 1,000 × MAX_REQUEST_BYTES of text and their ASTs. The
 * validation cache is keyed by the document object, so it goes with the document cache.
 */
export function boundedParserCaches(bounds: TextCacheBounds) {
  return {
    documentCache: textKeyedCache<DocumentNode>(bounds, AST_BYTES_PER_CHARACTER),
    // A parse error holds its source: the text itself (two bytes a character at most).
    errorCache: textKeyedCache<object>(bounds, 2),
  };
}
