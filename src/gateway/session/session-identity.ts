import { createHash } from "node:crypto";
import { bearerToken } from "../../upstream/authorization.ts";

/**
 * A session's identity, the one key of its logout and every other per-token record: the SHA-256
 * of what the token's signature covers (its header and payload as sent), read from an
 * `Authorization` value as verify reads it. Every spelling the verifier accepts of one token (the
 * signature's last base64url character and its padding are slack) has this one identity, and no
 * one without the key can sign other text. Undefined when the value holds no Bearer token.
 */
export function sessionIdentity(authorization: string): string | undefined {
  const token = bearerToken(authorization);
  if (token === undefined || token === "") return undefined;
  const signed = token.includes(".") ? token.slice(0, token.lastIndexOf(".")) : token;
  return createHash("sha256").update(signed).digest("hex");
}
