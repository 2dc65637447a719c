import { createClient } from "graphql-ws";
import { WebSocket } from "ws";

/** How a session's token reaches the gateway: each way a page or a client may send it. */
export const TOKEN_TRANSPORTS = [
  "cookie",
  "authorization",
  "socket-cookie",
  "socket-params",
  "socket-header-params",
] as const;
export type TokenTransport = (typeof TOKEN_TRANSPORTS)[number];

export interface SessionClientOptions {
  cookie: string;
  /** The page's origin, listed in CORS_ORIGINS. */
  origin: string;
}

/**
 * `{ organization { name } }` with `token` sent one way: the HTTP status and the first error's
 * message, or over graphql-ws the close code and reason (200 and no message when it ran).
 */
export async function runWith(
  url: string,
  token: string,
  transport: TokenTransport,
  options: SessionClientOptions,
): Promise<{ status: number; message: string | undefined }> {
  const query = "{ organization { name } }";
  if (transport === "cookie" || transport === "authorization") {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
        ...(transport === "cookie"
          ? { cookie: `${options.cookie}=${token}`, origin: options.origin, "x-graphql-csrf": "1" }
          : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { errors?: Array<{ message: string }> };
    return { status: response.status, message: body.errors?.[0]?.message };
  }
  const headers =
    transport === "socket-cookie"
      ? { origin: options.origin, cookie: `${options.cookie}=${token}` }
      : {};
  class ClientSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const authorization = `Bearer ${token}`;
  const client = createClient({
    url: `${url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: ClientSocket,
    retryAttempts: 0,
    lazy: true,
    onNonLazyError: () => undefined,
    connectionParams:
      transport === "socket-params"
        ? { Authorization: authorization }
        : transport === "socket-header-params"
          ? { headers: { Authorization: authorization } }
          : {},
  });
  try {
    return await new Promise((resolve) => {
      client.subscribe(
        { query },
        {
          next: (value) =>
            resolve({
              status: value.errors ? 400 : 200,
              message: value.errors?.[0]?.message,
            }),
          error: (error) => {
            const closed = error as { code?: number; reason?: string };
            resolve({ status: closed.code ?? 0, message: closed.reason ?? String(error) });
          },
          complete: () => undefined,
        },
      );
    });
  } finally {
    await client.dispose();
  }
}
