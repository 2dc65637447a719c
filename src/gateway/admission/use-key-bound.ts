import type { ExecutionArgs } from "graphql";
import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { GatewayContext } from "../execution/context.ts";
import { requestLevel } from "../shared/http-status.ts";
import { refuseBeforeRunning } from "./refuse-before-running.ts";

/** Longest Authorization value sent upstream; no real API key comes near it. */
export const MAX_KEY_BYTES = 4096;

/**
 * What is wrong with an Authorization value as a key, or undefined when nothing is. HTTP cannot
 * carry a control character or a non-ASCII one in a header, but graphql-ws connection params
 * can: such a "key" would make the upstream request itself fail, so it is refused here instead.
 */
export function keyProblem(authorization: string, maxBytes = MAX_KEY_BYTES): string | undefined {
  if (Buffer.byteLength(authorization) > maxBytes) {
    return `The Authorization header is longer than ${maxBytes} bytes: it holds no valid API key.`;
  }
  if (!/^[\x20-\x7E\t]*$/.test(authorization)) {
    return "The Authorization value holds a character no HTTP header may carry (a control or non-ASCII character): it holds no valid API key.";
  }
  // The upstream takes `Bearer <key>` alone: a bare key or an empty one would only be refused there.
  if (!/^[ \t]*bearer[ \t]+[^ \t]/i.test(authorization)) {
    return "The Authorization value must be `Bearer <API key>`, with the key after the scheme.";
  }
  return undefined;
}

/**
 * Refuses an operation whose key is longer than `maxBytes`, or holds a character no header may
 * carry, with UNAUTHENTICATED before any upstream call, on every transport (HTTP, SSE and
 * graphql-ws all execute through here): a megabyte "key" would otherwise be copied into every
 * upstream request and every poller, and a control character would fail the upstream request.
 */
export function useKeyBound(maxBytes = MAX_KEY_BYTES): Plugin {
  const judge = (args: ExecutionArgs) => {
    const { authorization } = args.contextValue as GatewayContext;
    const problem = authorization === undefined ? undefined : keyProblem(authorization, maxBytes);
    if (problem === undefined) return;
    return { errors: [requestLevel(gatewayError("UNAUTHENTICATED", problem))] };
  };
  return refuseBeforeRunning(judge);
}
