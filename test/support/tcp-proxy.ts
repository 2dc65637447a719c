import { connect, createServer, type Socket } from "node:net";

/**
 * A real TCP proxy on a free loopback port in front of one target: `cut()` drops every
 * connection through it and refuses new ones until `restore()`, as a network partition between
 * one gateway and Redis looks to that gateway (the others keep their own links).
 */
export interface TcpProxy {
  readonly port: number;
  /** e.g. "redis://127.0.0.1:<port>" for a Redis target. */
  url(scheme: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * `replyDelayMs`: each chunk from the target reaches the client that much later, in order (a
 * slow link to Redis: a command's wait is long enough for a client to hang up inside it).
 */
export async function startTcpProxy(
  targetPort: number,
  options: { replyDelayMs?: number } = {},
): Promise<TcpProxy> {
  let open = true;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    const delayMs = options.replyDelayMs ?? 0;
    if (delayMs === 0) upstream.pipe(client);
    else {
      upstream.on("data", (chunk: Buffer) => {
        setTimeout(() => {
          if (!client.destroyed) client.write(chunk);
        }, delayMs);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    cut() {
      open = false;
      dropAll();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
