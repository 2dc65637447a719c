import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  type Server,
  type ServerResponse,
} from "node:http";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { type ErrorCode, gatewayError, isGatewayErrorCode } from "../../errors.ts";
import { listenHttp } from "../../listen.ts";
import { requestIdOfMessage } from "../arrival/refusals.ts";
import type { Gateway } from "../create-gateway.ts";
import { inRequestScope } from "../observability/logger.ts";
import { GATEWAY_DEFAULTS } from "../settings/defaults.ts";
import { formatWithHttpStatus, refusalOnSocket, writeRefusal } from "../shared/http-status.ts";
import { answerClientError } from "./client-errors.ts";
import { CARRIER, type OperationOutcome, runOverWebSocket } from "./over-websocket.ts";
import { createSessionAdmission, type SessionCookieOptions } from "./session-cookie.ts";
import { createIdleSweeper, verifyUpgrade, webSocketShare } from "./socket-bounds.ts";

export interface ListeningGateway {
  /** e.g. "http://127.0.0.1:4000" */
  readonly url: string;
  readonly server: Server;
  /**
   * Graceful stop: accepts nothing new, ends every subscription with SHUTTING_DOWN (graphql-ws
   * sockets close 1001), lets in-flight requests finish, and cuts what is left after `graceMs`.
   */
  drain(graceMs: number): Promise<void>;
  /** Immediate stop: every connection is cut. */
  close(): Promise<void>;
}

/** Socket limits that keep slow or numerous clients from holding the server (docs/operations.md). */
export interface ListenOptions {
  /** Longest wait for a request's headers; default 10 000 ms. */
  headersTimeoutMs?: number;
  /** Longest wait for a whole request (headers and body); default 30 000 ms. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive socket is kept; default 5000 ms. */
  keepAliveTimeoutMs?: number;
  /** Most open sockets; further ones are closed on arrival; default 1000. */
  maxConnections?: number;
  /** Largest graphql-ws message (MAX_REQUEST_BYTES); default 1 MiB. */
  maxMessageBytes?: number;
  /** graphql-ws sockets at most (MAX_WEBSOCKETS); default three quarters of maxConnections. */
  maxWebSockets?: number;
  /** Longest wait for `connection_init` (WS_INIT_TIMEOUT_MS); default 3000 ms. */
  webSocketInitTimeoutMs?: number;
  /** A socket holding no subscription this long is closed (WS_IDLE_TIMEOUT_MS); default 30 000 ms. */
  webSocketIdleTimeoutMs?: number;
  /**
   * Whether the common case (a JSON POST of one query or mutation) takes the node:http fast path
   * (fast-path.ts); default on (main.ts passes GATEWAY_FAST_PATH).
   */
  fastPath?: boolean;
  /** Told each time a request is served on the fast path (tests prove it is taken). */
  onFastPath?: () => void;
  /** Session mode over a cookie (SESSION_COOKIE): its name and the origins that may use it. */
  sessionCookie?: SessionCookieOptions;
  /** Paths served beside /graphql on the same port: the MCP endpoint (MCP=on; src/gateway/mcp/). */
  mcp?: PathEndpoint;
}

/** Paths served beside /graphql on its port, by a handler of their own. */
export interface PathEndpoint {
  handles(pathname: string): boolean;
  /**
   * `loggedOut`: why a credential's session is refused beyond the gateway's own checks (listen()'s
   * logouts), or undefined.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    loggedOut?: (authorization: string) => Promise<string | undefined>,
  ): Promise<void>;
  close(): Promise<void>;
}

/** graphql-ws close code and reason for a socket closed by a drain: the server is going away. */
export const GOING_AWAY = { code: 1001, reason: "SHUTTING_DOWN: the server is going away" };

/** Time given to SHUTTING_DOWN errors already pushed to subscribers to reach their sockets. */
const FAREWELL_MS = 100;

/**
 * Serves the gateway over HTTP (queries, mutations, SSE subscriptions, GraphiQL) and over
 * graphql-ws on the same `/graphql` path, both through yoga's envelop so every plugin applies.
 */
export async function listen(
  gateway: Gateway,
  port: number,
  host: string,
  options: ListenOptions = {},
): Promise<ListeningGateway> {
  const requestTimeout = options.requestTimeoutMs ?? GATEWAY_DEFAULTS.requestTimeoutMs;
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(
    options.headersTimeoutMs ?? GATEWAY_DEFAULTS.headersTimeoutMs,
    requestTimeout,
  );
  let draining = false;
  const fastPath = options.fastPath ?? true;
  const serve = fastPath
    ? (req: IncomingMessage, res: ServerResponse) =>
        gateway.fastPath.serve(req, res, gateway, options.onFastPath)
    : gateway;
  // In session mode, whichever way its token rides: a logout must hold on every transport.
  const sessions =
    (gateway.sessionMode || options.sessionCookie !== undefined) &&
    createSessionAdmission(
      options.sessionCookie,
      (authorization) => gateway.connectionRefusal({ Authorization: authorization }),
      gateway.fleetLogouts(),
      gateway.corsOrigins,
    );
  const graphql = sessions
    ? async (req: IncomingMessage, res: ServerResponse) => {
        if (await sessions.admit(req, res)) await serve(req, res);
      }
    : serve;
  const { mcp } = options;
  // A logged-out session is refused at /mcp too, with MCP's own 401.
  const loggedOut = sessions ? sessions.loggedOutRefusal : undefined;
  const handle = mcp
    ? (req: IncomingMessage, res: ServerResponse) =>
        mcp.handles(new URL(req.url ?? "/", "http://localhost").pathname)
          ? mcp.serve(req, res, loggedOut)
          : graphql(req, res)
    : graphql;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? GATEWAY_DEFAULTS.keepAliveTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default): a short timeout needs it.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 2))),
      // node's own refusal of an HTTP/1.1 request without Host is a bare 400: ours names why.
      requireHostHeader: false,
    },
    (req, res) => {
      // During a drain every answer closes its socket: no new request rides a kept-alive one.
      if (draining) res.shouldKeepAlive = false;
      if (req.headers.host === undefined && req.httpVersion === "1.1") {
        res.shouldKeepAlive = false;
        writeRefusal(
          res,
          gatewayError("BAD_HTTP_REQUEST", "An HTTP/1.1 request must send a `Host` header."),
          requestIdOfMessage(req),
        );
        return;
      }
      void inRequestScope(() => handle(req, res));
    },
  );
  server.maxConnections = options.maxConnections ?? GATEWAY_DEFAULTS.maxConnections;
  // Headers too large, too slow or malformed get a GraphQL error, not node's empty reply.
  server.on("clientError", (error, socket) => answerClientError(error, socket, maxHeaderSize));
  // ws refuses (close 1009) a message over maxPayload from its length header, before reading it.
  // Upgrades past the WebSocket share are refused: the rest of the slots stay for HTTP.
  const share = webSocketShare(server.maxConnections, options.maxWebSockets);
  // `noServer`: the HTTP server's own errors (a busy port) stay its own, and reach the caller of
  // listen() once, instead of being re-emitted on the WebSocket server first.
  const webSockets: WebSocketServer = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? GATEWAY_DEFAULTS.maxRequestBytes,
    // Single-connection SSE streams hold connections as sockets do: they share the same places.
    verifyClient: verifyUpgrade(share, () => webSockets.clients.size + gateway.sseStreams.open),
  });
  server.on("upgrade", (request, socket, head) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== gateway.graphqlEndpoint) {
      refusalOnSocket(
        socket,
        gatewayError("NOT_FOUND", `No WebSocket is served at ${path}: graphql-ws is at /graphql.`),
      );
      return;
    }
    webSockets.handleUpgrade(request, socket, head, (webSocket) =>
      webSockets.emit("connection", webSocket, request),
    );
  });
  const idleMs = options.webSocketIdleTimeoutMs ?? GATEWAY_DEFAULTS.webSocketIdleTimeoutMs;
  const idle = createIdleSweeper(idleMs);
  gateway.sseStreams.bound(share, () => webSockets.clients.size, idleMs);
  const graphqlWs = useServer(
    {
      connectionInitWaitTimeout:
        options.webSocketInitTimeoutMs ?? GATEWAY_DEFAULTS.webSocketInitTimeoutMs,
      // Acknowledged only for a key that passes the local checks (else close 4403 Forbidden).
      // The close reason names the catalogue code, as an HTTP client's error would.
      onConnect: async (context) => {
        if (sessions) {
          const admitted = await sessions.admitSocket(
            context.extra.request,
            context.connectionParams,
            context.extra.socket,
          );
          if ("refusal" in admitted) {
            context.extra.socket.close(4403, closeReason(admitted.refusal));
            return false;
          }
          // The cookie's token, where the page sent none in its connection params.
          (context as { connectionParams: unknown }).connectionParams = admitted.params;
        }
        const refusal = await gateway.connectionRefusal(context.connectionParams);
        if (refusal === undefined) {
          idle.watch(context.extra.socket, context);
          return true;
        }
        context.extra.socket.close(4403, closeReason(`UNAUTHENTICATED: ${refusal}`));
        return false;
      },
      // Each operation already ran through yoga in onSubscribe: its result rides in rootValue.
      execute: (args) => (args.rootValue as OperationOutcome).result as never,
      subscribe: (args) => (args.rootValue as OperationOutcome).result as never,
      // graphql-ws serialises results itself: catalogue errors get `http.status` here.
      onNext: (_context, _id, _payload, args, result) =>
        formatWithHttpStatus(result, (args.rootValue as OperationOutcome).requestId) as never,
      onSubscribe: async (context, _id, payload) => {
        // Every rule of an HTTP request (too deep to parse included) holds here too: one pipeline.
        const outcome = await runOverWebSocket(gateway, context, payload);
        return "errors" in outcome
          ? outcome.errors
          : { schema: gateway.getEnveloped().schema, document: CARRIER, rootValue: outcome };
      },
    },
    webSockets,
  );

  // A client's protocol fault (an oversized or malformed frame) is its own doing: ws has already
  // closed the socket (1009, 1002); graphql-ws would log it at error level with a stack trace.
  webSockets.on("connection", (socket) => {
    // graphql-ws's own refusals (no connection_init in time, a bad message) name no code: the
    // close reason starts with the catalogue's, as every other refusal does.
    const close = socket.close.bind(socket);
    socket.close = (code?: number, reason?: string | Buffer) =>
      close(code, typeof reason === "string" ? catalogueCloseReason(code, reason) : reason);
    socket.removeAllListeners("error");
    socket.on("error", (error) => gateway.logger.debug("graphql-ws socket closed:", error.message));
  });

  const url = await listenHttp(server, port, host);
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  return {
    url,
    server,
    async drain(graceMs) {
      draining = true;
      idle.stop();
      server.close();
      const cut = setTimeout(() => {
        server.closeAllConnections();
        // Upgraded sockets are no longer the HTTP server's to close.
        for (const socket of webSockets.clients) socket.terminate();
      }, graceMs);
      // Idle kept-alive sockets go as soon as their last answer is out.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      try {
        gateway.liveHub.shutDown();
        await mcp?.close();
        await new Promise((resolve) => setTimeout(resolve, Math.min(FAREWELL_MS, graceMs)));
        for (const socket of webSockets.clients) socket.close(GOING_AWAY.code, GOING_AWAY.reason);
        gateway.sseStreams.closeAll();
        // dispose() resolves once every socket is gone (closed above, or cut at the grace).
        await Promise.all([graphqlWs.dispose(), closed]);
        gateway.closeFleet();
      } finally {
        clearTimeout(cut);
        clearInterval(sweep);
      }
    },
    async close() {
      idle.stop();
      await mcp?.close();
      gateway.liveHub.close();
      gateway.sseStreams.closeAll();
      gateway.closeFleet();
      await graphqlWs.dispose();
      webSockets.close();
      server.closeAllConnections();
      server.close();
      await closed;
    },
  };
}

/** The catalogue code of each of graphql-ws's own close codes that refuses a client. */
const CODE_OF_CLOSE: Record<number, ErrorCode> = {
  4400: "BAD_HTTP_REQUEST",
  4401: "UNAUTHENTICATED",
  4408: "REQUEST_TIMEOUT",
  4409: "BAD_HTTP_REQUEST",
  4429: "BAD_HTTP_REQUEST",
  4500: "INTERNAL_SERVER_ERROR",
};

function catalogueCloseReason(code: number | undefined, reason: string): string {
  const named = code === undefined ? undefined : CODE_OF_CLOSE[code];
  if (named === undefined || isGatewayErrorCode(reason.split(":")[0])) return reason;
  return closeReason(`${named}: ${reason}`);
}

/** A WebSocket close reason is at most 123 bytes. */
function closeReason(text: string): string {
  return Buffer.byteLength(text) <= 123
    ? text
    : `${Buffer.from(text).subarray(0, 120).toString()}...`;
}
