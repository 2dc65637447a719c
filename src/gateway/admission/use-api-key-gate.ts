import type { ExecutionArgs } from "graphql";
import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { GatewayContext } from "../execution/context.ts";
import { factsOf } from "../execution/operation-facts.ts";
import { requestLevel } from "../http-status.ts";
import { refuseBeforeRunning } from "./refuse-before-running.ts";

/**
 * An operation that reaches the upstream needs a key: without one it is UNAUTHENTICATED, HTTP
 * 401, with no upstream call. Operations that make no call (introspection) need none.
 */
export function useApiKeyGate(): Plugin {
  function judge(args: ExecutionArgs) {
    const facts = factsOf(args.contextValue as object);
    const estimated = facts.estimatedUpstreamCalls ?? 0;
    if (
      estimated === 0 ||
      (args.contextValue as unknown as GatewayContext).authorization !== undefined
    ) {
      return undefined;
    }
    const refusal = gatewayError(
      "UNAUTHENTICATED",
      "An API key is required: send the header `Authorization: Bearer <API key>`.",
    );
    return {
      errors: [requestLevel(refusal)],
      extensions: { cost: { estimated, upstreamCalls: 0 } },
    };
  }
  return refuseBeforeRunning(judge);
}
