import {
  createSourceEventStream,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLError,
} from "graphql";
import { isAsyncIterable, mapAsyncIterator, type Plugin, Repeater } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import type { GatewayContext } from "../execution/context.ts";
import { endAtExpiry } from "../live/stream-lifetime.ts";
import { type DocumentFactsCache, selectionKey } from "../shared/document-facts.ts";
import { requestLevel } from "../shared/http-status.ts";

export interface SubscriptionLimits {
  /** Most live subscriptions of one API key (MAX_SUBSCRIPTIONS_PER_KEY). */
  maxSubscriptionsPerKey: number;
  /** Most live subscriptions of one graphql-ws socket or SSE request (MAX_SUBSCRIPTIONS_PER_CONNECTION). */
  maxSubscriptionsPerConnection: number;
  /** Most live subscriptions of the instance (MAX_SUBSCRIPTIONS_TOTAL). */
  maxSubscriptionsTotal: number;
}

/**
 * A fresh context for the resolution of one event for one selection: its own loads (shared by
 * every subscriber of that selection) and its own MAX_UPSTREAM_CALLS budget.
 */
export type EventContext = (subscriber: GatewayContext) => GatewayContext;

/** Live subscriptions counted per key, per connection and in all, with the refusal past a bound. */
export class SubscriptionCounts {
  readonly #byKey = new Map<string, number>();
  readonly #byConnection = new WeakMap<object, number>();
  #total = 0;
  readonly #limits: SubscriptionLimits;

  constructor(limits: SubscriptionLimits) {
    this.#limits = limits;
  }

  get total(): number {
    return this.#total;
  }

  /** Throws SUBSCRIPTION_LIMIT_EXCEEDED if one more would pass a bound; counts nothing. */
  check(key: string, connection: object | undefined): void {
    const ofKey = this.#byKey.get(key) ?? 0;
    const ofConnection = connection ? (this.#byConnection.get(connection) ?? 0) : 0;
    const perKey = this.#limits.maxSubscriptionsPerKey;
    const perConnection = this.#limits.maxSubscriptionsPerConnection;
    const total = this.#limits.maxSubscriptionsTotal;
    if (ofConnection >= perConnection) {
      throw limitExceeded(`this connection already holds ${perConnection} subscriptions`, {
        limit: perConnection,
        scope: "connection",
      });
    }
    if (ofKey >= perKey) {
      throw limitExceeded(`this API key already holds ${perKey} subscriptions`, {
        limit: perKey,
        scope: "key",
      });
    }
    if (this.#total >= total) {
      throw limitExceeded(`this server already serves ${total} subscriptions`, {
        limit: total,
        scope: "server",
      });
    }
  }

  /** Counts one more subscription, or throws SUBSCRIPTION_LIMIT_EXCEEDED; returns its release. */
  acquire(key: string, connection: object | undefined): () => void {
    this.take(key, connection);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(key, connection);
    };
  }

  /**
   * Counts one more subscription, or throws SUBSCRIPTION_LIMIT_EXCEEDED: the caller releases it
   * once with the same key and connection (a live query, which keeps no closure for it).
   */
  take(key: string, connection: object | undefined): void {
    this.check(key, connection);
    const ofKey = this.#byKey.get(key) ?? 0;
    const ofConnection = connection ? (this.#byConnection.get(connection) ?? 0) : 0;
    this.#byKey.set(key, ofKey + 1);
    if (connection) this.#byConnection.set(connection, ofConnection + 1);
    this.#total += 1;
  }

  /** One subscription taken with this key and connection is over. */
  release(key: string, connection: object | undefined): void {
    this.#total -= 1;
    const left = (this.#byKey.get(key) ?? 1) - 1;
    if (left === 0) this.#byKey.delete(key);
    else this.#byKey.set(key, left);
    if (connection) {
      this.#byConnection.set(connection, (this.#byConnection.get(connection) ?? 1) - 1);
    }
  }
}

/** A subscription's results until its session expires, then the error that says so. */
function untilExpiry(
  results: AsyncIterableIterator<ExecutionResult>,
  session: { expiresAt: number },
): AsyncIterableIterator<ExecutionResult> {
  return new Repeater<ExecutionResult>(async (push, stop) => {
    const cancel = endAtExpiry(session, (error) => {
      void push({ errors: [requestLevel(error as GraphQLError)] });
      stop();
    });
    void (async () => {
      try {
        for await (const result of results) {
          await push(result);
        }
        stop();
      } catch (error) {
        stop(error);
      }
    })();
    await stop;
    cancel();
    await results.return?.();
  });
}

function limitExceeded(why: string, extensions: { limit: number; scope: string }) {
  return gatewayError(
    "SUBSCRIPTION_LIMIT_EXCEEDED",
    `Subscription refused: ${why}. End one before starting another.`,
    { subscriptions: extensions },
  );
}

/**
 * Subscriptions within bounds. Each one counts against its key, its connection (the graphql-ws
 * socket, or the SSE request) and the instance until its stream ends. Each event is resolved once
 * per distinct selection (document, operation name and variables), in a context of its own with
 * its own upstream budget, and that one result goes to every subscriber of the selection: N
 * subscribers of one poller cost one poll and one set of loads per event, not N.
 */
export function useSubscriptionBounds(
  eventContext: EventContext,
  /** Shared with live queries (answer/use-live-queries.ts), which count as subscriptions. */
  counts: SubscriptionCounts,
  gateway: { documents: DocumentFactsCache; keyHash: KeyHasher },
): Plugin {
  // Per event object (the poller hands every subscriber the same one): per selection, its result.
  const resolved = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

  function resolveShared(args: ExecutionArgs, selection: string, event: unknown) {
    if (typeof event !== "object" || event === null) return resolveEvent(args, event);
    let bySelection = resolved.get(event);
    if (bySelection === undefined) {
      bySelection = new Map();
      resolved.set(event, bySelection);
    }
    let result = bySelection.get(selection);
    if (result === undefined) {
      result = resolveEvent(args, event);
      bySelection.set(selection, result);
    }
    return result;
  }

  async function resolveEvent(args: ExecutionArgs, event: unknown): Promise<ExecutionResult> {
    const contextValue = eventContext(args.contextValue as GatewayContext);
    return execute({ ...args, rootValue: event, contextValue });
  }

  async function subscribe(args: ExecutionArgs) {
    const context = args.contextValue as GatewayContext & { socket?: object; request?: object };
    let release: () => void;
    try {
      release = counts.acquire(
        gateway.keyHash(context.authorization ?? ""),
        context.socket ?? context.request,
      );
    } catch (error) {
      return { errors: [requestLevel(error as ReturnType<typeof gatewayError>)] };
    }
    let stream: Awaited<ReturnType<typeof createSourceEventStream>>;
    try {
      stream = await createSourceEventStream(args);
    } catch (error) {
      release();
      throw error;
    }
    if (!isAsyncIterable(stream)) {
      release();
      return stream;
    }
    const selection = selectionKey(gateway.documents, args);
    const results = mapAsyncIterator(
      stream,
      (event) => resolveShared(args, selection, event),
      (error: unknown) => {
        release();
        throw error;
      },
      release,
    );
    return context.session ? untilExpiry(results, context.session) : results;
  }

  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribe as never);
    },
  };
}
