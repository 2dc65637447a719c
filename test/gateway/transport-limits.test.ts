import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { type ListenOptions, listen } from "../../src/gateway/transport/server.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { createUpstreamClient } from "../../src/upstream/client.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME, DIALECT, FAST_PATH } from "./harness.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox and a gateway listening with the given socket limits. */
async function start(options: ListenOptions = {}) {
  const sandbox = await startSandbox({ port: 0, dialect: DIALECT.name });
  const upstream = createUpstreamClient({ baseUrl: sandbox.url, timeoutMs: 5000 });
  const gateway = createGateway({ upstream, logging: false, maxRequestBytes: 64 * 1024 });
  const server = await listen(gateway, 0, "127.0.0.1", {
    maxMessageBytes: 64 * 1024,
    fastPath: FAST_PATH,
    ...options,
  });
  cleanups.push(async () => {
    await server.close();
    await upstream.close();
    await sandbox.close();
  });
  return { url: server.url, sandbox, wsUrl: `${server.url.replace(/^http/, "ws")}/graphql` };
}

const LONG_KEY = `Bearer sk_${"x".repeat(5000)}`;
const SUBSCRIPTION = `subscription { conversationStatus(id: "${SEED_IDS.acmeLiveConversation}") { duration } }`;

function openSocket(url: string): Socket {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  cleanups.push(async () => void socket.destroy());
  return socket;
}

describe("graphql-ws messages are bounded by MAX_REQUEST_BYTES", () => {
  it("closes a socket sending an 8 MiB message (1009) before parsing it; nothing reaches upstream", async () => {
    const { wsUrl, sandbox } = await start();
    const socket = new WebSocket(wsUrl, "graphql-transport-ws");
    cleanups.push(async () => void socket.terminate());
    await once(socket, "open");
    socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: ACME } }));
    await once(socket, "message");
    const closed = once(socket, "close") as Promise<[number, Buffer]>;
    const padding = "x".repeat(8 * 1024 * 1024);
    socket.send(
      JSON.stringify({
        id: "1",
        type: "subscribe",
        payload: { query: SUBSCRIPTION, variables: { padding } },
      }),
    );
    const [code] = await closed;
    expect(code).toBe(1009);
    expect(sandbox.requests).toEqual([]);
  });

  it("still serves a subscription whose message is within the bound", async () => {
    const { wsUrl } = await start();
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: ACME },
      retryAttempts: 0,
    });
    cleanups.push(() => client.dispose() as Promise<void>);
    const iterator = client.iterate({ query: SUBSCRIPTION })[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({
      data: { conversationStatus: { duration: expect.any(Number) } },
    });
    await iterator.return?.();
  });
});

describe("keys longer than 4 KiB are refused without an upstream call", () => {
  const expectRefused = (body: {
    errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }>;
  }) => {
    expect(body.errors?.map((error) => error.extensions?.code)).toEqual(["UNAUTHENTICATED"]);
  };

  it("over HTTP POST and GET (401)", async () => {
    const { url, sandbox } = await start();
    const posted = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: LONG_KEY },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    });
    expect(posted.status).toBe(401);
    expectRefused(await posted.json());
    const got = await fetch(
      `${url}/graphql?query=${encodeURIComponent("{ organization { name } }")}`,
      {
        headers: { authorization: LONG_KEY, accept: "application/graphql-response+json" },
      },
    );
    expect(got.status).toBe(401);
    expectRefused(await got.json());
    expect(sandbox.requests).toEqual([]);
  });

  it("over SSE and graphql-ws", async () => {
    const { url, wsUrl, sandbox } = await start();
    const sse = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: LONG_KEY,
      },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    const text = await sse.text();
    expect(text).toContain('"code":"UNAUTHENTICATED"');

    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: LONG_KEY },
      retryAttempts: 0,
    });
    cleanups.push(() => client.dispose() as Promise<void>);
    const received: unknown[] = [];
    // Over graphql-ws such a key fails the local checks at connection_init: 4403, never acknowledged.
    const closed = await (async () => {
      for await (const result of client.iterate({ query: SUBSCRIPTION })) received.push(result);
      return undefined;
    })().catch((error: { code?: number }) => error);
    expect(received).toEqual([]);
    expect(closed).toMatchObject({ code: 4403 });
    expect(sandbox.requests).toEqual([]);
  });

  it("lets a key within the bound reach the upstream, which judges it", async () => {
    const { url, sandbox } = await start();
    const key = `Bearer sk_${"x".repeat(4000)}`;
    const answer = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: key },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    });
    expectRefused(await answer.json());
    expect(sandbox.requests).toHaveLength(1);
  });
});

describe("slow and numerous clients cannot hold sockets", () => {
  it("answers 408 and closes a socket that sends its headers too slowly (slowloris)", async () => {
    const { url } = await start({ headersTimeoutMs: 300 });
    const socket = openSocket(url);
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    const closed = once(socket, "close");
    socket.write("POST /graphql HTTP/1.1\r\nHost: localhost\r\n");
    const started = Date.now();
    // One header line every 100 ms, never the blank line that ends them; then silence, so no
    // write of ours can meet the closed socket (a reset there may drop the 408 before it is read).
    for (let line = 0; line < 2 && !socket.destroyed && received === ""; line += 1) {
      socket.write(`X-Slow-${line}: 1\r\n`);
      await sleep(100);
    }
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000); // unbounded, it would stay open
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it("answers 408 to a request whose body comes too slowly (REQUEST_TIMEOUT_MS)", async () => {
    const { url } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const socket = openSocket(url);
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    const closed = once(socket, "close");
    socket.write(
      "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        "Content-Length: 1000\r\n\r\n",
    );
    const started = Date.now();
    // One body byte every 100 ms of the 1000 announced, then silence (as above).
    for (let byte = 0; byte < 3 && !socket.destroyed && received === ""; byte += 1) {
      socket.write(" ");
      await sleep(100);
    }
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000); // unbounded, it would stay open
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes sockets past the connection cap, and serves again once one is free", async () => {
    const { url } = await start({ maxConnections: 2 });
    const held = [openSocket(url), openSocket(url)];
    await Promise.all(held.map((socket) => once(socket, "connect")));
    const extra = openSocket(url);
    let answered = "";
    extra.on("data", (chunk) => {
      answered += chunk;
    });
    extra.on("error", () => undefined);
    extra.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    // once() would reject on the reset: the close is what counts.
    await new Promise((resolve) => extra.once("close", resolve));
    expect(answered).toBe("");

    // The server frees the place once it sees the close: until then a new socket is cut.
    held[0]?.destroy();
    await vi.waitFor(
      async () => {
        const response = await fetch(`${url}/healthz`, { headers: { connection: "close" } });
        expect(response.status).toBe(200);
      },
      { timeout: WAIT_MS, interval: 20 },
    );
  });
});
