import { createHash } from "node:crypto";
import {
  defaultExtractPersistedOperationId,
  usePersistedOperations,
} from "@graphql-yoga/plugin-persisted-operations";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { gatewayError } from "../../errors.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import { requestLevel } from "../shared/http-status.ts";

export interface PersistedDocumentsOptions {
  /**
   * Trusted documents: the manifest codegen's client preset writes (`persistedDocuments: true`),
   * `{ "<sha256 hash>": "<document>" }`. Clients run one by `documentId` or by its hash.
   */
  manifest?: Readonly<Record<string, string>>;
  /** Only the manifest's documents run (by ID, by hash or by identical text); default false. */
  trustedOnly?: boolean;
  /** Automatic persisted queries remembered at most (the least recently used go); GATEWAY_DEFAULTS.apqCapacity. */
  apqCapacity?: number;
  /** Bytes of registered query text kept at most, all keys together (APQ_MAX_BYTES). */
  apqMaxBytes?: number;
  /** A query longer than this (in UTF-16 units, about bytes) is never registered (MAX_CACHED_DOCUMENT_BYTES). */
  maxCachedDocumentBytes?: number;
  /** Where registrations live; default a bounded in-process LRU (another may be shared, e.g. Redis). */
  store?: PersistedQueryStore;
  /**
   * Whether the upstream has accepted this Authorization lately: only then is a registration kept
   * (after the operation ran), so no caller without a key can fill the store.
   */
  acceptsKey?: (authorization: string) => boolean;
}

/** Registered APQ texts by `<key hash>:<sha256>`: each key sees only its own registrations. */
export interface PersistedQueryStore {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, document: string): void | Promise<void>;
}

/** The default store: bounded in entries, in bytes, and per entry. */
export function createMemoryQueryStore(options: {
  capacity: number;
  maxBytes: number;
  maxDocumentBytes: number;
}): PersistedQueryStore {
  const cache = new LRUCache<string, string>({
    max: options.capacity,
    maxSize: options.maxBytes,
    maxEntrySize: options.maxDocumentBytes,
    sizeCalculation: (text) => Math.max(1, text.length),
  });
  return { get: (key) => cache.get(key), set: (key, text) => void cache.set(key, text) };
}

/**
 * Persisted documents, on yoga's persisted-operations plugin. Without `trustedOnly`, Apollo's
 * automatic persisted queries: a hash the gateway does not know answers `PersistedQueryNotFound`,
 * the client sends the query with its hash, and the gateway checks and remembers it. With
 * `trustedOnly`, nothing outside the manifest runs, so a stolen token cannot run a query of its own.
 */
export function usePersistedDocuments(
  options: PersistedDocumentsOptions & {
    /** The gateway's naming of keys: each key's registrations are stored under its hash. */
    keyHash: KeyHasher;
    /** Bounds, and where registrations live: createGateway applies their defaults once. */
    maxCachedDocumentBytes: number;
    store: PersistedQueryStore;
  },
): Plugin {
  const storeKey = (authorization: string, hash: string) =>
    `${options.keyHash(authorization)}:${hash}`;
  const manifest = options.manifest ?? {};
  const trustedOnly = options.trustedOnly ?? false;
  const hashByText = new Map(Object.entries(manifest).map(([hash, text]) => [text, hash]));
  const { store, maxCachedDocumentBytes: maxDocumentBytes } = options;
  const acceptsKey = options.acceptsKey ?? (() => false);
  // A registration waits for its operation to run: it is kept only if it ran and the key was
  // accepted.
  const pending = new WeakMap<Request, { key: string; text: string; authorization: string }>();

  const registration: Plugin = {
    onParams({ params, setParams, request }) {
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
      const authorization = request.headers.get("authorization");
      // No key, or a document too large to keep: it runs (or not) as a plain query would.
      if (!authorization || params.query.length > maxDocumentBytes) return;
      pending.set(request, {
        key: storeKey(authorization, hash),
        text: params.query,
        authorization,
      });
    },
    onResultProcess({ request, result }) {
      const registering = pending.get(request);
      if (registering === undefined) return;
      pending.delete(request);
      if (ran(result) && acceptsKey(registering.authorization)) {
        // A registration not kept costs the client one more registration, never an answer; the
        // fleet's store counts and logs its own refusals (FleetRedis.attempt).
        return Promise.resolve(store.set(registering.key, registering.text)).catch(() => {});
      }
      return undefined;
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
          getPersistedOperation: async (key, request) => {
            const trusted = manifest[key];
            if (trusted !== undefined) return trusted;
            const authorization = request.headers.get("authorization");
            // A probe without a key, or of another key's registration, is told what a miss is told.
            if (!authorization) return null;
            return (await store.get(storeKey(authorization, key))) ?? null;
          },
          customErrors: {
            // Apollo's persisted-query link retries with the query on exactly this message.
            notFound: {
              message: "PersistedQueryNotFound",
              extensions: { code: "PERSISTED_QUERY_NOT_FOUND" },
            },
            persistedQueryOnly: () =>
              requestLevel(
                gatewayError(
                  "PERSISTED_QUERY_ONLY",
                  "Only trusted documents run on this gateway: send a `documentId` from its manifest.",
                ),
              ),
            keyNotFound: {
              message: "Send a query, a `documentId` or a persisted-query hash.",
              // yoga's own refusal of a request without a query, as the catalogue names it: 400
              // whatever the client accepts.
              extensions: { code: "BAD_REQUEST", http: { status: 400 } },
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

/**
 * Whether the operation ran: an answer with `data` (a stream, or `null` data after a field error
 * included). One refused before it ran (not valid, or not admitted) has errors alone.
 */
function ran(result: unknown): boolean {
  if (typeof result !== "object" || result === null) return false;
  if (Symbol.asyncIterator in result) return true;
  if (Array.isArray(result)) return result.some(ran);
  return "data" in result;
}
