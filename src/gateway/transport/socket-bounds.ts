import type { IncomingMessage } from "node:http";
import type { WebSocket } from "ws";
import { IdleSweeper } from "./idle-sweeper.ts";

/**
 * Sockets that cannot be hoarded (docs/limits.md): graphql-ws sockets are a share of
 * MAX_CONNECTIONS, acknowledged only for a key that passes the local checks, and closed once
 * they have held no subscription for a while.
 */

/** Close code and reason of a graphql-ws socket that held no subscription for too long. */
export const IDLE_CLOSE = { code: 4000, reason: "Idle: no subscription" } as const;

/**
 * The graphql-ws sockets allowed at once: `maxWebSockets` when given, else three quarters of
 * MAX_CONNECTIONS; always at least one place kept for HTTP clients and `/healthz`.
 */
export function webSocketShare(maxConnections: number, maxWebSockets?: number): number {
  const share = maxWebSockets ?? Math.floor(maxConnections * 0.75);
  return Math.max(0, Math.min(share, maxConnections - 1));
}

/** Refuses an upgrade past the share with HTTP 503 before any WebSocket is made. */
export function verifyUpgrade(share: number, open: () => number) {
  return (
    _info: { req: IncomingMessage },
    callback: (ok: boolean, code?: number, message?: string) => void,
  ) => {
    if (open() < share) callback(true);
    else callback(false, 503, "Too many WebSocket connections; try again later");
  };
}

interface Watched {
  readonly subscriptions: Record<string, unknown>;
}

/** Closes acknowledged sockets that hold no subscription for `idleMs` (IdleSweeper's rule). */
export function createIdleSweeper(idleMs: number) {
  const contexts = new WeakMap<WebSocket, Watched>();
  const sweeper = new IdleSweeper<WebSocket>(idleMs, {
    busy: (socket) => Object.keys(contexts.get(socket)?.subscriptions ?? {}).length > 0,
    close: (socket) => socket.close(IDLE_CLOSE.code, IDLE_CLOSE.reason),
  });
  return {
    watch(socket: WebSocket, context: Watched) {
      contexts.set(socket, context);
      sweeper.watch(socket);
      socket.once("close", () => sweeper.forget(socket));
    },
    stop: () => sweeper.stop(),
  };
}
