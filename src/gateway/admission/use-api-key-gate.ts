import type { ExecutionArgs } from "graphql";
import { gatewayError } from "../../errors.ts";
import type { GatewayContext } from "../execution/context.ts";
import { factFlow } from "../execution/operation-facts.ts";
import { requestLevel } from "../http-status.ts";
import { type JudgingPlugin, refuseBeforeRunning } from "./refuse-before-running.ts";

/**
 * An operation that reaches the upstream needs a key: without one it is UNAUTHENTICATED, HTTP
 * 401, with no upstream call. Operations that make no call (introspection) need none.
 */
export function useApiKeyGate(): JudgingPlugin {
  // Whether the operation reaches the upstream at all is the cost estimate's to say.
  const facts = factFlow({ reads: ["estimatedUpstreamCalls"] });
  function judge(args: ExecutionArgs) {
    const estimated = facts.read(args.contextValue as object, "estimatedUpstreamCalls");
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
  return refuseBeforeRunning(judge, facts);
}
