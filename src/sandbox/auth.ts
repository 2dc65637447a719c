import { ApiError } from "./error-codes.ts";
import { DEMO_KEYS, extraOrganizationId, extraOrganizationKey, SEED_IDS } from "./seed-data.ts";

/** Who a request acts for: the organization (the rate-limit bucket too) and what it may do. */
export interface Caller {
  organizationId: string;
  readOnly: boolean;
}

const DEMO_CALLERS: ReadonlyMap<string, Caller> = new Map([
  [DEMO_KEYS.acme, { organizationId: SEED_IDS.acmeOrganization, readOnly: false }],
  [DEMO_KEYS.globex, { organizationId: SEED_IDS.globexOrganization, readOnly: false }],
  [DEMO_KEYS.acmeReadonly, { organizationId: SEED_IDS.acmeOrganization, readOnly: true }],
]);

/** The demo keys, and one full-access key per extra organization (`extraOrganizations`). */
export function apiKeys(extraOrganizations: number): ReadonlyMap<string, Caller> {
  const keys = new Map(DEMO_CALLERS);
  for (let n = 1; n <= extraOrganizations; n++) {
    keys.set(extraOrganizationKey(n), { organizationId: extraOrganizationId(n), readOnly: false });
  }
  return keys;
}

/**
 * The caller named by `Authorization: Bearer <key>` among `keys`, or undefined for a
 * missing/unknown key.
 */
export function identifyCaller(
  authorization: string | undefined,
  keys: ReadonlyMap<string, Caller> = DEMO_CALLERS,
): Caller | undefined {
  // RFC 7235: the scheme is case-insensitive and one or more spaces precede the credentials.
  const match = /^Bearer +([^\s]+)$/i.exec(authorization ?? "");
  return match?.[1] === undefined ? undefined : keys.get(match[1]);
}

/** `withDetails`: the dialect also says why in `error.details.reason`. */
export function unauthorized(authorization: string | undefined, withDetails = false): ApiError {
  const missing = authorization === undefined;
  return new ApiError(
    "UNAUTHORIZED",
    missing
      ? "Missing Authorization header; send `Authorization: Bearer <API key>`."
      : "Invalid API key or malformed Authorization header.",
    withDetails ? { reason: missing ? "missing_key" : "invalid_key" } : undefined,
  );
}

export function forbiddenWrite(withDetails = false): ApiError {
  return new ApiError(
    "FORBIDDEN",
    "This API key is read-only; it cannot change data.",
    withDetails ? { reason: "read_only", required: "write" } : undefined,
  );
}
