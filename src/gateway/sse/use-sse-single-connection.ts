import { GraphQLError } from "graphql";
import {
  createHandler,
  type Request as SseRequest,
  type Response as SseResponse,
  TOKEN_HEADER_KEY,
  TOKEN_QUERY_KEY,
} from "graphql-sse";
import type { Plugin, YogaServerInstance } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import { GATEWAY_DEFAULTS } from "../settings/defaults.ts";
import { formatWithHttpStatus, refusalResponse } from "../shared/http-status.ts";
import { IdleSweeper } from "../transport/idle-sweeper.ts";
import { webSocketShare } from "../transport/socket-bounds.ts";
import { type Reservation, SseReservations, type SseStreamLimits } from "./sse-reservations.ts";

/** Where graphql-sse clients connect, in either mode (yoga's graphql-sse plugin's path too). */
export const SSE_STREAM_ENDPOINT = "/graphql/stream";

/**
 * The one answer to a token this instance does not hold for this key: unknown, expired, another
 * instance's, or reserved with another key (or none). It names the routing a fleet needs.
 */
export const STREAM_NOT_HERE =
  "Stream not found: no stream of this token was reserved with this key on this instance. A single-connection stream lives on the instance that reserved it, for the key (or session) that reserved it: send the same `Authorization` with every request, and route every request that carries the token (the `X-GraphQL-Event-Stream-Token` header or the `token` query parameter) to that instance, e.g. by the instance's prefix of the token (SSE_TOKEN_PREFIX; docs/fleet.md).";

export interface SseSingleConnectionOptions {
  limits: SseStreamLimits;
  /**
   * Who asks, as the gateway's local checks see it: a key's hash, or a verified session's
   * organization and subject; undefined when they refuse (no key, a malformed one, a bad token).
   */
  holderOf(request: Request): Promise<string | undefined>;
  /** Whether the upstream has accepted the request's key lately (a verified session: true). */
  vouchedFor(request: Request): boolean;
  /** Starts every token of this instance, so a fleet's balancer can route by it (SSE_TOKEN_PREFIX). */
  tokenPrefix?: string;
}

/** What listen() tells the streams, and what it asks of them. */
export interface SseStreams {
  /** Single-connection streams open now (each holds a connection). */
  readonly open: number;
  /** Reservations held now, open or not. */
  readonly reserved: number;
  /**
   * The long-lived connections allowed (the graphql-ws share of MAX_CONNECTIONS), those held by
   * others (graphql-ws sockets), and how long an open stream may hold no operation.
   */
  bound(share: number, othersOpen: () => number, idleMs: number): void;
  /** Ends every stream (a drain, a close). */
  closeAll(): void;
}

/** What one graphql-sse request carries through the handler. */
interface Carried {
  reservation?: Reservation;
  token?: string;
  /** The yoga server context of the request. */
  serverContext?: Record<string, unknown>;
  started?: boolean;
  ended?: boolean;
}

type RawRequest = SseRequest<Request | undefined, Carried>;

/**
 * The GraphQL over SSE protocol (graphql-sse) at `/graphql/stream`, in both its modes: distinct
 * connections, and the single-connection mode that a browser watching many live calls over
 * HTTP/1.1 (six connections per origin) needs. yoga's own plugin (@graphql-yoga/plugin-graphql-sse)
 * builds each operation from `getEnveloped` and so skips yoga's `onParams` hooks, where trusted
 * documents are enforced; here each operation goes through `getResultForParams`, the pipeline
 * HTTP requests and graphql-ws operations take, so every rule holds on this transport too.
 *
 * graphql-sse's handler keeps its streams to itself, so it is wrapped: a stream is reserved only
 * by a key that passes the local checks, under a token of 256 random bits, and every later
 * request must carry the same key (sse-reservations.ts); reservations expire unopened, are
 * limited per key and in all, an open stream counts against the connection share and ends when
 * it holds no operation for a while or when its queued results pass their bound in bytes, and
 * its subscriptions count against the per-connection limit as one connection's.
 */
export function useSseSingleConnection(options: SseSingleConnectionOptions): {
  plugin: Plugin;
  streams: SseStreams;
} {
  const reservations = new SseReservations(options.limits, options.tokenPrefix);
  let handler: ((request: RawRequest) => Promise<SseResponse>) | undefined;
  let share = webSocketShare(GATEWAY_DEFAULTS.maxConnections);
  let othersOpen = () => 0;
  const idle = new IdleSweeper<Reservation>(GATEWAY_DEFAULTS.webSocketIdleTimeoutMs, {
    busy: (reservation) => reservation.activeOperations > 0,
    close: (reservation) => reservation.close(),
  });

  const plugin: Plugin = {
    onYogaInit({ yoga }) {
      const server = yoga as unknown as YogaServerInstance<Record<string, unknown>, object>;
      handler = createHandler<Request | undefined, Carried>({
        // Only the token this wrapper checked (or made, for a PUT) reaches graphql-sse's table.
        authenticate: (req) => req.context.token,
        async onSubscribe(req, params) {
          const carried = req.context;
          const request = req.raw as Request;
          if (carried.reservation) {
            carried.started = true;
            carried.reservation.activeOperations += 1;
          }
          try {
            const result = await server.getResultForParams(
              {
                params: {
                  query: params.query as string,
                  ...(params.operationName ? { operationName: params.operationName } : {}),
                  ...(params.variables ? { variables: params.variables } : {}),
                  ...(params.extensions ? { extensions: params.extensions } : {}),
                },
                request,
              },
              {
                ...carried.serverContext,
                request,
                // The stream is the connection the subscription limits count.
                ...(carried.reservation ? { socket: carried.reservation.connection } : {}),
              },
            );
            return asResult(result) as never;
          } catch (error) {
            // onParams refusals (PERSISTED_QUERY_ONLY, …) are that operation's errors.
            if (error instanceof GraphQLError) return asResult({ errors: [error] }) as never;
            throw error;
          }
        },
        onNext(_context, req, result) {
          // Each operation names the request that sent it (its POST into the stream).
          const requestId = requestIdIn(req.context.serverContext ?? {});
          const formatted = formatWithHttpStatus(result as never, requestId);
          const reservation = req.context.reservation;
          if (reservation) {
            const bytes = Buffer.byteLength(JSON.stringify(formatted));
            if (!reservation.enqueue(bytes, options.limits.maxQueuedBytes)) {
              queueMicrotask(() => reservation.close());
            }
          }
          return formatted as never;
        },
        onComplete(_context, req) {
          operationOver(req.context);
        },
      });
    },
    onRequest({ request, url, endResponse, serverContext }) {
      if (url.pathname !== SSE_STREAM_ENDPOINT || handler === undefined) return;
      return serve(request, url, serverContext as Record<string, unknown>).then(endResponse);
    },
  };

  function operationOver(carried: Carried) {
    if (!carried.started || carried.ended || !carried.reservation) return;
    carried.ended = true;
    carried.reservation.activeOperations -= 1;
  }

  function run(request: Request | undefined, carried: Carried, method = request?.method) {
    const headers = request?.headers ?? new Headers({ accept: "text/event-stream" });
    return (handler as NonNullable<typeof handler>)({
      method: method ?? "GET",
      url: request?.url ?? `http://localhost${SSE_STREAM_ENDPOINT}`,
      headers,
      body: request ? () => request.text() : null,
      raw: request,
      context: carried,
    });
  }

  async function serve(request: Request, url: URL, serverContext: Record<string, unknown>) {
    if (request.method === "PUT") return reserve(request, serverContext);
    const token = request.headers.get(TOKEN_HEADER_KEY) ?? url.searchParams.get(TOKEN_QUERY_KEY);
    // No token: distinct connections (or graphql-sse's own 404), every rule applied per operation.
    if (token === null) return respond(await run(request, { serverContext }), request);
    const reservation = reservations.find(token, await options.holderOf(request));
    if (reservation === undefined)
      return refusalResponse(
        gatewayError("NOT_FOUND", STREAM_NOT_HERE),
        requestIdIn(serverContext),
      );
    const carried: Carried = { reservation, token, serverContext };
    const accept = request.headers.get("accept") ?? "*/*";
    if (accept !== "text/event-stream" || reservation.opened) {
      // Only an accepted operation (202) ends later, in onComplete; any other ends here.
      let answer: SseResponse;
      try {
        answer = await run(request, carried);
      } catch (error) {
        operationOver(carried);
        throw error;
      }
      if (answer[1]?.status !== 202) operationOver(carried);
      return respond(answer, request);
    }
    // Opening the stream: it holds a connection for as long as it lasts.
    if (reservations.open + othersOpen() >= share) {
      return tooManyConnections();
    }
    reservations.markOpened(reservation);
    idle.watch(reservation);
    return respond(await run(request, carried), request, reservation);
  }

  async function reserve(request: Request, serverContext: Record<string, unknown>) {
    const holder = await options.holderOf(request);
    if (holder === undefined) {
      return refusalResponse(
        gatewayError(
          "UNAUTHENTICATED",
          "Reserving a stream needs a key that passes the gateway's checks (in session mode, a valid session token): send `Authorization: Bearer <key>` with every request of the stream.",
        ),
        requestIdIn(serverContext),
      );
    }
    const reservation = reservations.reserve(holder, options.vouchedFor(request));
    if (typeof reservation === "string") {
      const { limit, why, scope } = {
        holder: {
          limit: options.limits.reservationsPerKey,
          why: "this key already holds",
          scope: "key",
        },
        total: {
          limit: options.limits.reservationsTotal,
          why: "this server already holds",
          scope: "server",
        },
        unaccepted: {
          limit: reservations.unacceptedShare,
          why: "keys the upstream has not accepted yet (run one operation with this key first) already hold",
          scope: "unaccepted",
        },
      }[reservation];
      return refusalResponse(
        gatewayError(
          "RATE_LIMITED",
          `Stream refused: ${why} ${limit} single-connection streams. Close one before reserving another.`,
          { streams: { limit, scope } },
        ),
        requestIdIn(serverContext),
      );
    }
    reservation.close = () => void closeUnopened(reservation);
    const answer = await run(request, { reservation, token: reservation.token, serverContext });
    if (answer[1]?.status !== 201) reservations.forget(reservation);
    return respond(answer, request);
  }

  /** graphql-sse forgets a stream when its messages end: opened here, and ended at once. */
  async function closeUnopened(reservation: Reservation) {
    if (reservation.opened || !reservations.holds(reservation)) return;
    reservations.markOpened(reservation);
    const [body] = await run(undefined, { reservation, token: reservation.token });
    if (body !== null && typeof body === "object") await body.return(undefined);
    reservations.forget(reservation);
  }

  function respond(
    [body, init]: SseResponse,
    request: Request,
    reservation?: Reservation,
  ): Response {
    if (body === null || typeof body === "string") return new Response(body, init);
    const messages = body;
    const encoder = new TextEncoder();
    let over = false;
    const end = () => {
      if (over) return;
      over = true;
      if (reservation) {
        idle.forget(reservation);
        reservations.forget(reservation);
      }
    };
    if (reservation) reservation.close = () => void messages.return(undefined);
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await messages.next();
        if (value != null) {
          if (reservation && value.startsWith("event: next")) reservation.dequeue();
          controller.enqueue(encoder.encode(value));
        }
        if (done) {
          controller.close();
          end();
        }
      },
      async cancel() {
        end();
        await messages.return(undefined);
      },
    });
    const gone = () => {
      end();
      void messages.return(undefined);
    };
    if (request.signal.aborted) gone();
    else request.signal.addEventListener("abort", gone, { once: true });
    return new Response(stream, init);
  }

  const streams: SseStreams = {
    get open() {
      return reservations.open;
    },
    get reserved() {
      return reservations.size;
    },
    bound(newShare, newOthersOpen, newIdleMs) {
      share = newShare;
      othersOpen = newOthersOpen;
      idle.restart(newIdleMs);
    },
    closeAll() {
      for (const reservation of reservations.all()) reservation.close();
      idle.stop();
    },
  };
  return { plugin, streams };
}

/**
 * No room for another long-lived connection: 503 with no catalogue code, as the graphql-ws
 * sockets' own bound answers (socket-bounds.ts).
 */
function tooManyConnections(): Response {
  const message =
    "Too many long-lived connections (graphql-ws sockets and SSE streams); try again later.";
  return new Response(JSON.stringify({ errors: [{ message, extensions: {} }] }), {
    status: 503,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/**
 * graphql-sse takes an object as a result only when it has a `data` key; a refusal before
 * execution has none. An absent `data` is kept absent on the wire (undefined is not serialised).
 */
function asResult(result: unknown): unknown {
  if (typeof result !== "object" || result === null || Symbol.asyncIterator in result)
    return result;
  return "data" in result ? result : { data: undefined, ...result };
}

/** The request's ID as request-id.ts put it in the server context, for a refusal to name. */
function requestIdIn(serverContext: Record<string, unknown>): string | undefined {
  return typeof serverContext.requestId === "string" ? serverContext.requestId : undefined;
}
