import { z } from "zod";
import { ApiError } from "./error-codes.ts";

const isoDateTime = z.iso.datetime({ offset: true });

function invalid(parameter: string, reason: string): ApiError {
  return new ApiError("INVALID_PARAMETER", `Query parameter \`${parameter}\` ${reason}.`, {
    location: "query",
    parameter,
    reason,
  });
}

/**
 * Typed access to an operation's query parameters. Unknown or repeated parameters are refused
 * up front (400 INVALID_PARAMETER) so a misspelt filter never silently returns everything.
 */
export class QueryReader {
  readonly #values = new Map<string, string>();

  constructor(search: URLSearchParams, allowed: readonly string[]) {
    for (const [name, value] of search) {
      if (!allowed.includes(name)) {
        const known = allowed.length === 0 ? "none" : allowed.join(", ");
        throw invalid(name, `is not a known parameter (known: ${known})`);
      }
      if (this.#values.has(name)) throw invalid(name, "must be given at most once");
      this.#values.set(name, value);
    }
  }

  string(name: string): string | undefined {
    return this.#values.get(name);
  }

  int(name: string, bounds: { fallback: number; min: number; max: number }): number {
    const raw = this.#values.get(name);
    if (raw === undefined) return bounds.fallback;
    const range = `must be an integer from ${bounds.min} to ${bounds.max}`;
    if (!/^[+-]?\d+$/.test(raw)) throw invalid(name, range);
    const value = Number(raw);
    if (value < bounds.min || value > bounds.max) throw invalid(name, range);
    return value;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.#values.get(name);
    if (raw === undefined) return undefined;
    if (!(values as readonly string[]).includes(raw)) {
      throw invalid(name, `must be one of ${values.join(", ")}`);
    }
    return raw as T;
  }

  /** An ISO 8601 date-time with a zone (`Z` or an offset), as epoch milliseconds. */
  dateTime(name: string): number | undefined {
    const raw = this.#values.get(name);
    if (raw === undefined) return undefined;
    const ms = Date.parse(raw);
    if (!isoDateTime.safeParse(raw).success || Number.isNaN(ms)) {
      throw invalid(
        name,
        "must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T00:00:00Z",
      );
    }
    return ms;
  }

  /**
   * An id used as a filter. The wrong prefix is a well-formed but impossible value: 422, the
   * same as an id in a body. An unknown id with the right prefix simply matches nothing.
   */
  id(name: string, prefix: string): string | undefined {
    const raw = this.#values.get(name);
    if (raw === undefined) return undefined;
    if (!raw.startsWith(prefix) || raw.length === prefix.length) {
      throw new ApiError(
        "VALIDATION_ERROR",
        `Query parameter \`${name}\` must start with ${prefix}.`,
        {
          location: "query",
          parameter: name,
          reason: `must start with ${prefix}`,
        },
      );
    }
    return raw;
  }
}
