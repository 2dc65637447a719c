import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createSessionServer, type SessionParts } from "./session-server.ts";

/** One MCP session: its own SDK server and transport, bound to the credential that opened it. */
export interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** The opening credential's hash (the gateway's key hasher): never the credential itself. */
  credential: string;
  lastSeen: number;
  /** Whether it follows a resource: a subscriber may be silent for long, and is kept. */
  watching(): boolean;
  /** Its open GET streams, the only way an update reaches it: none, and it is not kept. */
  streams: number;
  close(): Promise<void>;
}

export interface SessionTable {
  get(id: string): McpSession | undefined;
  readonly size: number;
  /** A new session, registered once the SDK has answered `initialize` with its ID. */
  open(opening: {
    authorization: string;
    credential: string;
    protocolVersion: string;
  }): Promise<McpSession>;
  closeAll(): Promise<void>;
}

/**
 * The open sessions, by their IDs (random UUIDs): a session unused for `idleMs` is closed. An ID
 * is never a credential: the endpoint compares each request's credential with the session's.
 */
export function createSessionTable(parts: SessionParts, idleMs: number): SessionTable {
  const sessions = new Map<string, McpSession>();
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values()) {
        const listening = session.watching() && session.streams > 0;
        if (now - session.lastSeen > idleMs && !listening) void session.close();
      }
    },
    Math.max(1000, Math.min(60_000, idleMs / 2)),
  );
  sweep.unref();
  return {
    get: (id) => sessions.get(id),
    get size() {
      return sessions.size;
    },
    async open(opening) {
      const { server, watching, close: stopWatching } = createSessionServer(parts, opening);
      let session: McpSession | undefined;
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          if (session) sessions.set(id, session);
        },
      });
      let closed = false;
      session = {
        transport,
        credential: opening.credential,
        lastSeen: Date.now(),
        watching,
        streams: 0,
        async close() {
          if (closed) return;
          closed = true;
          stopWatching();
          if (transport.sessionId) sessions.delete(transport.sessionId);
          // Closing what a transport already closed may reject: the session ends either way.
          await server.close().catch(() => undefined);
        },
      };
      const opened = session;
      transport.onclose = () => void opened.close();
      await server.connect(transport);
      return opened;
    },
    async closeAll() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.close()));
    },
  };
}
