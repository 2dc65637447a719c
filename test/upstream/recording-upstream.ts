import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  createUpstreamClient,
  type UpstreamClient,
  type UpstreamClientOptions,
} from "../../src/upstream/client.ts";
import { closedAfterEachTest } from "../support/closing.ts";

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

/**
 * For tests that each put the upstream client over a recording upstream: returns the functions
 * that start them, and closes whatever a test started (the last started first) once it ends.
 * `defaults` are the client options `start` uses unless a test gives its own.
 */
export function clientsPerTest(defaults: Omit<UpstreamClientOptions, "baseUrl"> = {}) {
  const closing = closedAfterEachTest();
  const startUpstream = async (handler: UpstreamHandler): Promise<RecordingUpstream> =>
    closing(await startRecordingUpstream(handler));
  const createClient = (options: UpstreamClientOptions): UpstreamClient =>
    closing(createUpstreamClient(options));
  return {
    startUpstream,
    createClient,
    /** An upstream answering with `handler`, and a client over it (`basePath` after its URL). */
    async start(
      handler: UpstreamHandler,
      options: Omit<UpstreamClientOptions, "baseUrl"> & { basePath?: string } = {},
    ) {
      const { basePath = "", ...rest } = options;
      const upstream = await startUpstream(handler);
      const client = createClient({ baseUrl: `${upstream.url}${basePath}`, ...defaults, ...rest });
      return { upstream, client };
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
