import { readFileSync } from "node:fs";
import { ConfigError } from "../../env.ts";

/**
 * The trusted-documents manifest named by TRUSTED_DOCUMENTS_FILE: the JSON object codegen's client
 * preset writes with `persistedDocuments: true`, `{ "<sha256 hash>": "<document>" }`. Anything
 * else stops the start with one line naming the variable.
 */
export function readTrustedDocuments(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`TRUSTED_DOCUMENTS_FILE cannot be read as JSON (${why})`);
  }
  const entries = typeof parsed === "object" && parsed !== null ? Object.entries(parsed) : [];
  if (
    Array.isArray(parsed) ||
    entries.length === 0 ||
    entries.some(([hash, text]) => !/^[\w:.-]{1,128}$/.test(hash) || typeof text !== "string")
  ) {
    throw new ConfigError(
      'TRUSTED_DOCUMENTS_FILE must hold a non-empty object of { "<hash>": "<document>" }',
    );
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
