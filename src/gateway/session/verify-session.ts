import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { bearerToken } from "../../upstream/authorization.ts";
import { GATEWAY_DEFAULTS } from "../settings/defaults.ts";
import { SessionRefused } from "./session-refused.ts";

/** Who a frontend's token says is calling. */
export interface Session {
  /** The organization whose API key the gateway forwards (claim `org`). */
  organization: string;
  /** The signed-in user or client (claim `sub`): what the per-session rate limit counts. */
  subject: string;
  /** Claim `readOnly: true`: mutations are refused before any upstream call. */
  readOnly: boolean;
  /** Claim `exp`, in milliseconds: every long-lived operation the session opened ends then. */
  expiresAt: number;
}

export interface SessionVerifierOptions {
  /** HS256 shared secret (SESSION_JWT_SECRET). */
  secret?: string;
  /** The issuer's JSON Web Key Set (SESSION_JWKS_URL). */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** Clock skew tolerated on `exp`/`nbf`; default 30 s. */
  clockSkewSeconds?: number;
}

export { SessionRefused };

/**
 * Verifies a frontend's `Authorization: Bearer <JWT>` with jose: the signature (HS256 with the
 * secret, or the JWKS's asymmetric algorithms; `alg: none` never), `exp` always, `iss`/`aud` when
 * configured, and the claims the gateway needs (`org`, `sub`).
 */
export function createSessionVerifier(options: SessionVerifierOptions) {
  const clockTolerance = options.clockSkewSeconds ?? GATEWAY_DEFAULTS.sessionClockSkewS;
  const secret = options.secret ? new TextEncoder().encode(options.secret) : undefined;
  const jwks: JWTVerifyGetKey | undefined = options.jwksUrl
    ? createRemoteJWKSet(new URL(options.jwksUrl))
    : undefined;
  const algorithms = secret ? ["HS256"] : ["RS256", "PS256", "ES256", "ES384", "EdDSA"];
  if (!secret && !jwks) throw new Error("session mode needs a secret or a JWKS URL");

  return async function verify(authorization: string | undefined): Promise<Session> {
    const token = bearerToken(authorization ?? "");
    if (token === undefined || /\s/.test(token))
      throw new SessionRefused(
        "A session token is required: send `Authorization: Bearer <token>`.",
      );
    let payload: JWTPayload;
    try {
      const verified = secret
        ? await jwtVerify(token, secret, verifyOptions())
        : await jwtVerify(token, jwks as JWTVerifyGetKey, verifyOptions());
      payload = verified.payload;
    } catch (error) {
      const reason =
        error instanceof Error && "code" in error ? String(error.code) : "ERR_JWT_INVALID";
      throw new SessionRefused(`The session token was refused (${reason}).`);
    }
    const { org, sub, readOnly } = payload as JWTPayload & { org?: unknown; readOnly?: unknown };
    if (typeof org !== "string" || org === "" || typeof sub !== "string" || sub === "") {
      throw new SessionRefused(
        "The session token was refused (it needs the claims `org` and `sub`).",
      );
    }
    // `exp` is required above, so it is a number here.
    const expiresAt = (payload.exp as number) * 1000;
    return { organization: org, subject: sub, readOnly: readOnly === true, expiresAt };
  };

  function verifyOptions() {
    return {
      algorithms,
      clockTolerance,
      requiredClaims: ["exp"],
      ...(options.issuer ? { issuer: options.issuer } : {}),
      ...(options.audience ? { audience: options.audience } : {}),
    };
  }
}

/** For tests and local keys: a JWKS held in memory. */
export { createLocalJWKSet };
