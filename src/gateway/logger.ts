import { createLogger, type LogLevel, type YogaLogger } from "@graphql-yoga/logger";
import { UpstreamError } from "../upstream/errors.ts";
import { upstreamFailureOf } from "./mask-error.ts";

/**
 * yoga logs, at error level with a stack, every error its masking replaces — which includes
 * each upstream answer the gateway maps, a plain 404 among them. Those are not the gateway's
 * errors: an upstream 4xx is the caller's (debug), an upstream failure is worth a one-line
 * warning, and everything else stays an error. Lines never carry request headers.
 */
export function createGatewayLogger(level: LogLevel | "silent"): YogaLogger {
  const base = createLogger(level);
  return {
    ...base,
    error: (...args: unknown[]) => {
      const upstream = upstreamFailureOf(args[0]);
      if (upstream instanceof UpstreamError && upstream.status < 500) {
        base.debug(`upstream answered ${upstream.status} ${upstream.code}: ${upstream.message}`);
      } else if (upstream instanceof UpstreamError) {
        base.warn(`upstream failed with ${upstream.status} ${upstream.code}: ${upstream.message}`);
      } else if (upstream) {
        base.warn(`upstream unavailable (${upstream.reason}): ${upstream.message}`);
      } else {
        base.error(...args);
      }
    },
  };
}
