import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the upstream saw it, body read to the end. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type UpstreamHandler = (
  request: RecordedRequest,
  res: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

export interface RecordingUpstream {
  url: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connectionCount(): number;
  /** Sockets the client (or we) closed so far. */
  closedConnectionCount(): number;
  close(): Promise<void>;
}

/** A purpose-built HTTP upstream on port 0 that records every request before `handler` runs. */
export async function startRecordingUpstream(handler: UpstreamHandler): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  let closedConnections = 0;
  const server = createServer(async (raw, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const request: RecordedRequest = {
      method: raw.method ?? "",
      url: raw.url ?? "",
      headers: raw.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(request);
    await handler(request, res, raw);
  });
  server.on("connection", (socket) => {
    connections += 1;
    socket.on("close", () => {
      closedConnections += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connectionCount: () => connections,
    closedConnectionCount: () => closedConnections,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Replies with a JSON body, the given status and extra headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/** A port that was free a moment ago and has nobody listening on it now. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Resolves when `predicate` holds, polling briefly; fails the test after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
