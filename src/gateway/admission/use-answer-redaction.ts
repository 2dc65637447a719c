import type { ExecutionArgs, ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { KeyRedactor } from "../../upstream/key-redaction.ts";
import type { GatewayContext } from "../execution/context.ts";
import { answerRedaction } from "../session/redact-by-schema.ts";

type Result = ExecutionResult & { incremental?: ReadonlyArray<Record<string, unknown>> };

/**
 * Session mode: every string of every answer, 2xx data included, goes through the same key
 * redaction as upstream errors before it reaches the browser, on every transport (HTTP, SSE,
 * graphql-ws and incremental delivery all execute through here). An upstream that names an
 * organization after its key cannot hand the key to the browser that must never hold it.
 * Errors need no second pass: their upstream text was redacted when the error was made. What the
 * gateway minted itself (cursors: fields marked `GATEWAY_ISSUED`) is left whole, so it round-trips.
 */
export function useAnswerRedaction(): Plugin {
  // One redactor per organization key (a handful: they come from SESSION_KEYS_FILE).
  const redactors = new LRUCache<string, KeyRedactor>({ max: 1000 });
  const redactorFor = (authorization: string | undefined) => {
    if (authorization === undefined) return undefined;
    let redactor = redactors.get(authorization);
    if (redactor === undefined) {
      redactor = new KeyRedactor(authorization);
      redactors.set(authorization, redactor);
    }
    return redactor;
  };

  const redacting = (args: ExecutionArgs) => {
    const redactor = redactorFor((args.contextValue as GatewayContext).authorization);
    if (redactor === undefined) return undefined;
    const answer = answerRedaction(redactor, args.schema, args.document, args.operationName);
    const redact = (result: Result): Result => ({
      ...result,
      ...(result.data == null ? {} : { data: answer.data(result.data) }),
      ...(result.incremental === undefined
        ? {}
        : { incremental: result.incremental.map((part) => redactPart(answer, part)) }),
    });
    return {
      onExecuteDone({ result, setResult }: OnDone) {
        if (!isAsyncIterable(result)) return setResult(redact(result as Result));
        return { onNext: ({ result: next, setResult: set }: OnNext) => set(redact(next)) };
      },
    };
  };

  return {
    onExecute({ args }) {
      const hooks = redacting(args);
      return hooks && { onExecuteDone: hooks.onExecuteDone as never };
    },
    onSubscribe({ args }) {
      const hooks = redacting(args);
      return hooks && { onSubscribeResult: hooks.onExecuteDone as never };
    },
  };
}

interface OnNext {
  result: Result;
  setResult: (result: Result) => void;
}

interface OnDone {
  result: Result | AsyncIterable<Result>;
  setResult: (result: Result) => void;
}

/** A deferred part's `data` or a streamed part's `items`, read where its `path` stands. */
function redactPart(
  answer: ReturnType<typeof answerRedaction>,
  part: Record<string, unknown>,
): Record<string, unknown> {
  const path = Array.isArray(part.path) ? (part.path as Array<string | number>) : [];
  return {
    ...part,
    ...(part.data == null ? {} : { data: answer.data(part.data, path) }),
    ...(Array.isArray(part.items) ? { items: answer.data(part.items, path) } : {}),
  };
}
