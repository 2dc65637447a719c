import type { z } from "zod";
import { ApiError } from "./error-codes.ts";

/**
 * Checks a body's shape: wrong types, missing required fields and unknown fields are
 * 400 BAD_REQUEST naming the field. Rules on the values themselves are 422 (`invalidField`).
 */
export function parseBodyShape<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path: PropertyKey[] = [...(issue?.path ?? [])];
  let reason = issue?.message ?? "is invalid";
  if (issue?.code === "unrecognized_keys") {
    path.push(issue.keys[0] ?? "");
    reason = "is not a known field";
  }
  const field = fieldName(path);
  throw new ApiError("BAD_REQUEST", `Body field \`${field}\`: ${reason}.`, {
    location: "body",
    field,
    reason,
  });
}

/** 422 VALIDATION_ERROR for a well-formed value that breaks a rule. */
export function invalidField(field: string, reason: string): ApiError {
  return new ApiError("VALIDATION_ERROR", `Body field \`${field}\` ${reason}.`, {
    location: "body",
    field,
    reason,
  });
}

/** `voiceConfigs[0].language`: the same notation as the 422 errors use. */
function fieldName(path: PropertyKey[]): string {
  let name = "";
  for (const segment of path) {
    if (typeof segment === "number") name += `[${segment}]`;
    else name += name === "" ? String(segment) : `.${String(segment)}`;
  }
  return name === "" ? "(body)" : name;
}
