import { readFileSync } from "node:fs";
import { ConfigError } from "../../env.ts";

/**
 * The organizations' API keys, held by the gateway in session mode: the JSON object
 * SESSION_KEYS_FILE names, `{ "<organization>": "<API key>" }`. A bad file stops the start with
 * one line that names the variable and never quotes a key.
 */
export function readSessionKeys(path: string): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new ConfigError("SESSION_KEYS_FILE cannot be read as JSON");
  }
  const entries =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? Object.entries(parsed)
      : [];
  if (entries.length === 0 || entries.some(([, key]) => typeof key !== "string" || key === "")) {
    throw new ConfigError(
      'SESSION_KEYS_FILE must hold a non-empty object of { "<organization>": "<API key>" }',
    );
  }
  return new Map(entries as Array<[string, string]>);
}
