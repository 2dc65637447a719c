import { createHash } from "node:crypto";
import { NoSchemaIntrospectionCustomRule } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { ERROR_CODES, type ErrorCode, gatewayError } from "../../errors.ts";
import { rateLimiterFlexible } from "../../fleet/rate-limiter.ts";
import { authorizationFrom, authorizationParam } from "../execution/context.ts";
import type { DocumentFactsCache } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";
import { SessionRefused } from "./session-refused.ts";
import type { Session } from "./verify-session.ts";

export interface SessionModeOptions {
  /** Verifies the frontend's token (verify-session.ts). */
  verify: (authorization: string | undefined) => Promise<Session>;
  /** Each organization's API key, held on the server. */
  keys: ReadonlyMap<string, string>;
  /** Operations one session may run per minute; default 600. */
  perSessionPerMinute?: number;
  /**
   * What counts them: default an in-process limiter; a fleet passes its Redis limiter
   * (fleet/session-limits.ts) so the limit holds across instances.
   */
  limiter?: RateLimiterAbstract;
}

/** What a session turns into: the organization's key to forward, and the session itself. */
export interface Authorized {
  authorization: string;
  session: Session;
}

/**
 * Session mode (AUTH_MODE=session): the browser holds a token from the frontend's own sign-in,
 * never an API key. Each request's token is verified, counted against its session's rate limit
 * (rate-limiter-flexible, keyed by organization and subject) and exchanged for its
 * organization's key. Refusals are answered before anything runs or goes upstream.
 */
export function createSessionAuthorizer(
  /** The limit as createGateway resolved it, its default applied once there. */
  options: SessionModeOptions & { perSessionPerMinute: number },
) {
  const { RateLimiterMemory, RateLimiterRes } = rateLimiterFlexible();
  const limiter =
    options.limiter ?? new RateLimiterMemory({ points: options.perSessionPerMinute, duration: 60 });
  return async function authorize(header: string | undefined): Promise<Authorized> {
    let session: Session;
    try {
      session = await options.verify(header);
    } catch (error) {
      if (error instanceof SessionRefused) throw refusal("UNAUTHENTICATED", error.message);
      throw error;
    }
    const key = options.keys.get(session.organization);
    if (key === undefined) {
      throw refusal("FORBIDDEN", "This session's organization has no API key on this gateway.");
    }
    try {
      await limiter.consume(sessionKey(session));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw refusal(
        "RATE_LIMITED",
        "This session has made too many requests; slow down.",
        {
          retryAfter,
        },
        { "Retry-After": String(retryAfter) },
      );
    }
    return { authorization: `Bearer ${key}`, session };
  };
}

/** The limiter's key of a session: a hash, so no subject's identity is kept in clear (in Redis). */
function sessionKey(session: Session): string {
  return createHash("sha256")
    .update(`${session.organization}\n${session.subject}`)
    .digest("base64url");
}

function refusal(
  code: ErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return createGraphQLError(message, {
    extensions: { code, ...extensions, http: { status: ERROR_CODES[code], headers } },
  });
}

/**
 * A token is judged before the document: a refused token answers 401, whatever the document,
 * rather than PERSISTED_QUERY_ONLY, which would tell a signed-out page to change its query.
 */
export function useSessionTokenFirst(
  verify: (authorization: string | undefined) => Promise<Session>,
): Plugin<Record<string, never>, { connectionParams?: unknown }> {
  return {
    async onParams({ request, context }) {
      // As the context factory reads it: the header, or graphql-ws's connection params.
      const header = request.headers.get("authorization");
      try {
        await verify(authorizationFrom(header ?? authorizationParam(context.connectionParams)));
      } catch (error) {
        if (error instanceof SessionRefused) throw refusal("UNAUTHENTICATED", error.message);
        throw error;
      }
    },
  };
}

/** Mutations of a read-only session (claim `readOnly: true`) are refused before they run. */
export function useReadOnlySessions(documents: DocumentFactsCache): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const session = (args.contextValue as { session?: Session }).session;
      if (!session?.readOnly) return;
      const operation = documents.of(args.document).operation(args.operationName);
      if (operation?.operation !== "mutation") return;
      setResultAndStopExecution({
        errors: [
          requestLevel(
            gatewayError("FORBIDDEN", "This session is read-only: it cannot change data."),
          ),
        ],
      });
    },
  };
}

/** No introspection (session mode's default): a stolen token cannot map the schema. */
export function useNoIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
