import { AsyncLocalStorage } from "node:async_hooks";
import type { LogLevel, YogaLogger } from "graphql-yoga";
import { type DestinationStream, pino } from "pino";
import { UpstreamError } from "../../upstream/errors.ts";
import { connectionRefusalOf, upstreamFailureOf } from "../shared/mask-error.ts";

/** The request a log line is written for: every line written while it runs carries its ID. */
const requestScope = new AsyncLocalStorage<{ requestId?: string }>();

/**
 * Runs one HTTP request's handling in its own log scope. The scope wraps the whole handling
 * (yoga's hooks cannot: a scope entered inside one does not reach the promises yoga chained
 * before it); `useRequestId` names the request in it once it has an ID.
 */
export function inRequestScope<T>(handle: () => T): T {
  return requestScope.run({}, handle);
}

/**
 * `handle` bound to the current request's log scope, for a callback the request's own events
 * (its body's end) will call from outside it.
 */
export function inThisRequestScope<A extends unknown[]>(
  handle: (...args: A) => void,
): (...args: A) => void {
  const scope = requestScope.getStore();
  return scope === undefined ? handle : (...args) => requestScope.run(scope, handle, ...args);
}

/** Names the current request's log scope (if it runs in one) by its ID. */
export function nameRequestScope(requestId: string): void {
  const scope = requestScope.getStore();
  if (scope) scope.requestId = requestId;
}

/**
 * JSON lines through pino (one object a line, strings escaped: upstream text with a newline or
 * an ANSI escape stays inside its field and cannot forge a line). yoga logs, at error level with
 * a stack, every error its masking replaces — which includes each upstream answer and each
 * connection refusal the gateway maps. Those are not the gateway's errors, and operators alert on
 * error lines: a client's mistake (a bad or mismatched cursor, a key the upstream refuses) is
 * info, any other upstream 4xx is the caller's business (debug), an upstream failure is a
 * warning, a caller that went away is debug; none has a stack. Everything else stays an error.
 * Upstream text is a data field, never the message. Lines never carry headers.
 */
export function createGatewayLogger(
  level: LogLevel | "silent",
  destination: DestinationStream = pino.destination(1),
): YogaLogger {
  const log = pino(
    {
      level,
      base: undefined,
      mixin: () => {
        const scope = requestScope.getStore();
        return scope?.requestId ? { requestId: scope.requestId } : {};
      },
    },
    destination,
  );
  const write =
    (at: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      if (first instanceof Error) log[at]({ err: first, args: rest.length ? rest : undefined });
      else log[at]({ args: rest.length ? rest : undefined }, String(first));
    };
  return {
    debug: (...args: unknown[]) => {
      // yoga's word for an execution its request's signal cancelled: the caller went away.
      if (args.length === 1 && args[0] === "Request aborted") {
        log.debug("the caller went away before the answer");
      } else write("debug")(...args);
    },
    info: write("info"),
    warn: write("warn"),
    error: (...args: unknown[]) => {
      const refusal = connectionRefusalOf(args[0]);
      if (refusal) {
        log.info(
          { code: refusal.code, clientMessage: refusal.message },
          "refused a client's list arguments",
        );
        return;
      }
      const upstream = upstreamFailureOf(args[0]);
      if (upstream instanceof UpstreamError) {
        const fields = {
          status: upstream.status,
          code: upstream.code,
          upstreamMessage: upstream.message,
        };
        if (upstream.status === 401 || upstream.status === 403) {
          log.info(fields, "upstream refused the key");
        } else if (upstream.status < 500) log.debug(fields, "upstream answered a client error");
        else log.warn(fields, "upstream failed");
      } else if (upstream?.reason === "ABORTED" || isAbort(args[0])) {
        log.debug("the caller went away before the answer");
      } else if (upstream) {
        log.warn(
          { reason: upstream.reason, upstreamMessage: upstream.message },
          "upstream unavailable",
        );
      } else {
        write("error")(...args);
      }
    },
  };
}

/** yoga's and the platform's abort of a request whose caller disconnected. */
function isAbort(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    if (cause.name === "AbortError") return true;
    cause = (cause as { originalError?: unknown }).originalError ?? cause.cause;
  }
  return false;
}
