import type { CallSignal } from "../../upstream/call-signal.ts";
import { requestIdOf } from "../arrival/request-id.ts";
import {
  authorizationFrom,
  authorizationParam,
  createContext,
  type GatewayContext,
} from "../execution/context.ts";
import type { GatewayServerContext } from "../settings/gateway-options.ts";
import type { GatewayParts } from "./gateway-parts.ts";

/** What yoga hands its context factory: its own initial context and the server's. */
type YogaInitial = Partial<GatewayServerContext> & {
  request?: Request;
  connectionParams?: unknown;
  req?: unknown;
};

/** A request the prepared lane serves: its headers, and the client's going away. */
interface LaneRequest {
  readonly headers: Headers;
  followDisconnect(operation: Pick<CallSignal, "abort">): void;
}

/**
 * The one maker of an operation's context, for each way an operation starts: a request through
 * yoga (HTTP, SSE or graphql-ws), a request the prepared lane serves, and a subscription's event.
 * Each is createContext over the gateway's dependencies, with what that start knows.
 */
export function operationContexts(parts: GatewayParts) {
  const { dependencies, authorize, keyHashOn } = parts;
  return {
    /** yoga's context factory: over graphql-ws there is no Fetch request, the key is in the params. */
    async ofYoga(initial: YogaInitial): Promise<GatewayContext> {
      const { request, connectionParams, requestId: serverRequestId, batchUsage, req } = initial;
      // An operation the prepared lane began and handed over: its reads are reused, not made again.
      if (initial.preparedContext) return initial.preparedContext;
      const header = authorizationFrom(
        request?.headers.get("authorization") ?? authorizationParam(connectionParams),
      );
      const requestId = serverRequestId ?? requestIdOf(request as Request);
      // Session mode exchanges the frontend's token for its organization's key, or refuses.
      const authorized = authorize ? await authorize(header) : undefined;
      const context = createContext(dependencies, {
        authorization: authorized ? authorized.authorization : header,
        requestId,
        signal: request?.signal,
        request,
        batch: batchUsage,
        keyHash: keyHashOn((req as { socket?: object } | undefined)?.socket),
      });
      return authorized ? { ...context, session: authorized.session } : context;
    },

    /**
     * The prepared lane's: as yoga's factory makes it for a request without a session, following
     * the client's going away, with yoga's own `request` and `params` beside (a rule may read
     * either on both paths).
     */
    ofLane(
      request: LaneRequest,
      params: unknown,
      requestId: string,
      connection?: object,
    ): GatewayContext {
      const context = createContext(dependencies, {
        authorization: authorizationFrom(request.headers.get("authorization")),
        requestId,
        request: request as unknown as Request,
        keyHash: keyHashOn(connection),
      });
      request.followDisconnect(context.operation);
      return Object.assign(context, { request, params });
    },

    /** A subscription event's own: fresh loads, its own budget and a deadline, whoever subscribed. */
    ofEvent(subscriber: GatewayContext): GatewayContext {
      return {
        ...subscriber,
        ...createContext(dependencies, {
          authorization: subscriber.authorization,
          signal: AbortSignal.timeout(parts.settings.operationDeadlineMs),
          requestId: subscriber.requestId,
        }),
      };
    },
  };
}

export type OperationContexts = ReturnType<typeof operationContexts>;
