import { keyProblem } from "../admission/use-key-bound.ts";
import { authorizationFrom, authorizationParam } from "../execution/context.ts";
import { SessionRefused } from "../session/session-refused.ts";
import type { GatewayOptions } from "../settings/gateway-options.ts";

/**
 * Why graphql-ws connection params are refused (no key, a key that fails the local checks, a
 * session token that does not verify), or undefined when the socket may be acknowledged.
 */
export function connectionRefusalFor(
  session: GatewayOptions["session"],
): (connectionParams: unknown) => Promise<string | undefined> {
  return async (connectionParams) => {
    const header = authorizationOfParams(connectionParams);
    if (header === undefined) {
      return "A key is required: send `Authorization` in the connection params.";
    }
    const problem = keyProblem(header);
    if (problem !== undefined || !session) return problem;
    return session.verify(header).then(
      () => undefined,
      (error: unknown) =>
        error instanceof SessionRefused ? error.message : "The session token was refused.",
    );
  };
}

/** The `Authorization` graphql-ws connection params carry, where the context reads it. */
export function authorizationOfParams(connectionParams: unknown): string | undefined {
  return authorizationFrom(authorizationParam(connectionParams));
}
