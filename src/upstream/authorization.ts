/**
 * The one reading of an `Authorization` value (RFC 7235): a scheme and its token, or a bare token.
 * Every per-key rule reads a key through here: the key memory's normal form, the session
 * token's verification, the key's redaction.
 */
export function parseAuthorization(value: string): { scheme: string | undefined; token: string } {
  const trimmed = value.trim();
  const parts = /^(\S+)\s+(\S.*)$/s.exec(trimmed);
  return parts
    ? { scheme: parts[1] as string, token: (parts[2] as string).trim() }
    : { scheme: undefined, token: trimmed };
}

/** The token of a `Bearer` value (the scheme in any case), or undefined for any other value. */
export function bearerToken(value: string): string | undefined {
  const { scheme, token } = parseAuthorization(value);
  return scheme?.toLowerCase() === "bearer" ? token : undefined;
}
