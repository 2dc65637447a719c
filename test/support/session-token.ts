import { SignJWT } from "jose";

/** The HS256 secret of the session-mode tests' verifiers. */
export const SESSION_SECRET = "a-test-secret-that-is-long-enough-for-hs256";

export interface SessionTokenOptions {
  /** `sub`: the session the token stands for (default `user-1`). */
  subject?: string;
  /** Claims beside `org: "org_acme"`, or in its place. */
  claims?: Record<string, unknown>;
  secret?: string;
  issuer?: string;
  audience?: string;
  /** `exp`: a time span ("5m", the default) or seconds since the epoch. */
  expires?: string | number;
}

/** A session token as a frontend's sign-in would issue it: HS256, the organization's claim. */
export function sessionToken(options: SessionTokenOptions = {}): Promise<string> {
  const token = new SignJWT({ org: "org_acme", ...options.claims })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(options.subject ?? "user-1")
    .setIssuedAt()
    .setExpirationTime(options.expires ?? "5m");
  if (options.issuer !== undefined) token.setIssuer(options.issuer);
  if (options.audience !== undefined) token.setAudience(options.audience);
  return token.sign(new TextEncoder().encode(options.secret ?? SESSION_SECRET));
}

/**
 * Every spelling of `token` the verifier accepts as the same token: each last character of the
 * signature that decodes to the same bytes (its low bits are padding), with and without `=`.
 */
export function tokenSpellings(token: string): string[] {
  const at = token.lastIndexOf(".") + 1;
  const signature = token.slice(at);
  const bytes = Buffer.from(signature, "base64url");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const lasts = [...alphabet].filter((last) =>
    Buffer.from(signature.slice(0, -1) + last, "base64url").equals(bytes),
  );
  return lasts.flatMap((last) => {
    const spelled = token.slice(0, -1) + last;
    return signature.length % 4 === 0 ? [spelled] : [spelled, `${spelled}=`];
  });
}
