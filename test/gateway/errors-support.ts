import { expect } from "vitest";

// What the error tests share: how the seed and the gateway word what they answer.

export const UPSTREAM_REQUEST_ID = expect.stringMatching(/^req_[a-z0-9]+$/);

export const UNAVAILABLE = "The upstream API is unavailable; try again later.";

/** The seed's error body, as an injected fault answers it. */
export function seedError(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) }, requestId: "req_fault" };
}
