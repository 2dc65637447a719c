import { createHash } from "node:crypto";
import {
  defaultExtractPersistedOperationId,
  usePersistedOperations,
} from "@graphql-yoga/plugin-persisted-operations";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { gatewayError } from "../errors.ts";

export interface PersistedDocumentsOptions {
  /**
   * Trusted documents: the manifest codegen's client preset writes (`persistedDocuments: true`),
   * `{ "<sha256 hash>": "<document>" }`. Clients run one by `documentId` or by its hash.
   */
  manifest?: Readonly<Record<string, string>>;
  /** Only the manifest's documents run (by ID, by hash or by identical text); default false. */
  trustedOnly?: boolean;
  /** Automatic persisted queries remembered at most (the least recently used go); default 1000. */
  apqCapacity?: number;
}

/**
 * Persisted documents, on yoga's persisted-operations plugin. Without `trustedOnly`, Apollo's
 * automatic persisted queries: a hash the gateway does not know answers `PersistedQueryNotFound`,
 * the client sends the query with its hash, and the gateway checks and remembers it. With
 * `trustedOnly`, nothing outside the manifest runs, so a stolen token cannot run a query of its own.
 */
export function usePersistedDocuments(options: PersistedDocumentsOptions = {}): Plugin {
  const manifest = options.manifest ?? {};
  const trustedOnly = options.trustedOnly ?? false;
  const hashByText = new Map(Object.entries(manifest).map(([hash, text]) => [text, hash]));
  const registered = new LRUCache<string, string>({ max: options.apqCapacity ?? 1000 });

  const registration: Plugin = {
    onParams({ params, setParams }) {
      const hash = defaultExtractPersistedOperationId(params, undefined as never, {});
      if (trustedOnly) {
        // A trusted document sent as text runs as itself: it is the same operation.
        const trusted = params.query === undefined ? undefined : hashByText.get(params.query);
        if (trusted !== undefined) setParams(byHash(params, trusted));
        return;
      }
      if (params.query === undefined || hash === null) return;
      if (sha256(params.query) !== hash) {
        throw gatewayError("BAD_USER_INPUT", "provided sha does not match query");
      }
      registered.set(hash, params.query);
    },
  };

  return {
    onPluginInit({ addPlugin }) {
      addPlugin(registration);
      addPlugin(
        usePersistedOperations({
          allowArbitraryOperations: !trustedOnly,
          extractPersistedOperationId: (params, request, context) => {
            const documentId = (params as { documentId?: unknown }).documentId;
            return typeof documentId === "string"
              ? documentId
              : defaultExtractPersistedOperationId(params, request, context);
          },
          getPersistedOperation: (key) => manifest[key] ?? registered.get(key) ?? null,
          customErrors: {
            // Apollo's persisted-query link retries with the query on exactly this message.
            notFound: {
              message: "PersistedQueryNotFound",
              extensions: { code: "PERSISTED_QUERY_NOT_FOUND" },
            },
            persistedQueryOnly: {
              message:
                "Only trusted documents run on this gateway: send a `documentId` from its manifest.",
              extensions: { code: "PERSISTED_QUERY_ONLY" },
            },
            keyNotFound: {
              message: "Send a query, a `documentId` or a persisted-query hash.",
              extensions: { code: "BAD_USER_INPUT" },
            },
          },
        }),
      );
    },
  };
}

function byHash(params: GraphQLParams, hash: string): GraphQLParams {
  const { query: _text, ...rest } = params;
  return {
    ...rest,
    extensions: { ...params.extensions, persistedQuery: { version: 1, sha256Hash: hash } },
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
