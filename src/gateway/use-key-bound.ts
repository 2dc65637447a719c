import type { ExecutionArgs } from "graphql";
import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../errors.ts";
import type { GatewayContext } from "./context.ts";
import { requestLevel } from "./http-status.ts";
import { refuseBeforeRunning } from "./refuse-before-running.ts";

/** Longest Authorization value sent upstream; no real API key comes near it. */
export const MAX_KEY_BYTES = 4096;

/**
 * Refuses an operation whose key is longer than `maxBytes` with UNAUTHENTICATED before any
 * upstream call, on every transport (HTTP, SSE and graphql-ws all execute through here): a
 * megabyte "key" would otherwise be copied into every upstream request and every poller.
 */
export function useKeyBound(maxBytes = MAX_KEY_BYTES): Plugin {
  const judge = (args: ExecutionArgs) => {
    const { authorization } = args.contextValue as GatewayContext;
    if (authorization === undefined || Buffer.byteLength(authorization) <= maxBytes) return;
    const refusal = gatewayError(
      "UNAUTHENTICATED",
      `The Authorization header is longer than ${maxBytes} bytes: it holds no valid API key.`,
    );
    return { errors: [requestLevel(refusal)] };
  };
  return refuseBeforeRunning(judge);
}
