import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { ACME } from "../gateway/harness.ts";
import { connectError } from "../support/connect.ts";

// The real entry point as a child process, against a slow upstream: a SIGTERM must let what is
// in flight finish, end live subscriptions with SHUTTING_DOWN, and exit 0.

const children: ChildProcess[] = [];
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

async function until(check: () => boolean, what: string, maxMs = 45_000): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > maxMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function spawnLogged(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "error", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.resume();
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, stdout: () => stdout, exited };
}

async function urlOf(stdout: () => string): Promise<string> {
  await until(() => / at (http\S+)/.test(stdout()), "the banner");
  return / at (http\S+)/.exec(stdout())?.[1] as string;
}

/** The error code of a fresh TCP connection to the URL's port (fetch might reuse a socket). */
const post = (url: string, query: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: ACME },
    body: JSON.stringify({ query }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

const SUBSCRIPTION = `subscription { conversationStatus(id: "${SEED_IDS.acmeLiveConversation}") { duration } }`;

describe("SIGTERM drains the gateway", () => {
  it("finishes six slow requests (writes included), ends subscriptions with SHUTTING_DOWN, exits 0", async () => {
    const upstream = await startSandbox({ port: 0, latencyMs: 1000 });
    sandboxes.push(upstream);
    const gateway = spawnLogged(process.execPath, ["src/main.ts"], {
      UPSTREAM_URL: upstream.url,
      POLL_INTERVAL_MS: "100",
    });
    const url = await urlOf(gateway.stdout);

    // A live SSE subscription and a live graphql-ws one, each with a first event in.
    const sse = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: ACME,
      },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    let sseText = "";
    const sseDone = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of sse.body as ReadableStream<Uint8Array>) {
        sseText += decoder.decode(chunk, { stream: true });
      }
    })();
    let wsClosed: { code: number; reason: string } | undefined;
    const wsErrors: unknown[] = [];
    const ws = createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: ACME },
      retryAttempts: 0,
      // Kept open after its subscription ends: the close code is then the server's.
      lazy: false,
      onNonLazyError: (error) => wsErrors.push(error),
      on: {
        closed: (event) => {
          wsClosed = event as { code: number; reason: string };
        },
      },
    });
    const wsPayloads: unknown[] = [];
    ws.subscribe(
      { query: SUBSCRIPTION },
      {
        next: (payload) => wsPayloads.push(payload),
        error: (error) => wsErrors.push(error),
        complete: () => undefined,
      },
    );
    await until(() => sseText.includes("duration") && wsPayloads.length > 0, "first events");

    const before = upstream.requests.length;
    const writes = [1, 2, 3].map((n) =>
      post(
        url,
        `mutation { updateOrganization(input: { city: "Drain ${n}" }) { organization { city } } }`,
      ),
    );
    const reads = [1, 2, 3].map(() => post(url, "{ organization { name } }"));
    const writeArrived = () =>
      upstream.requests.slice(before).filter((request) => request.method === "PATCH").length;
    const readArrived = () =>
      upstream.requests
        .slice(before)
        .filter((request) => request.method === "GET" && request.url === "/v1/organization").length;
    // Every write has reached the upstream, which takes a second to answer it; the three
    // identical reads share one call in flight (docs/upstream-sharing.md).
    await until(() => writeArrived() === 3 && readArrived() === 1, "four upstream requests");

    gateway.child.kill("SIGTERM");
    await until(() => gateway.stdout().includes("draining"), "the drain to start");
    // No new connection is accepted while draining.
    expect(await connectError(Number(new URL(url).port))).toBe("ECONNREFUSED");

    const answers = await Promise.all([...writes, ...reads]);
    for (const [index, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.organization ?? answer.body.data.updateOrganization).toBeTruthy();
      if (index < 3) {
        expect(answer.body.data.updateOrganization.organization.city).toMatch(/^Drain \d$/);
      }
    }

    await sseDone;
    expect(sseText).toContain('"code":"SHUTTING_DOWN"');
    // A field error of conversationStatus: no http.status (docs/operations.md).
    expect(sseText).not.toContain('"http"');
    await until(() => wsClosed !== undefined, "the graphql-ws socket to close");
    expect(wsClosed?.code).toBe(1001);
    expect(wsClosed?.reason).toMatch(/^SHUTTING_DOWN/);
    expect(JSON.stringify(wsPayloads)).toContain('"code":"SHUTTING_DOWN"');

    const [code] = await gateway.exited;
    expect(code).toBe(0);
    expect(gateway.stdout()).toContain("drained, exiting");
    await ws.dispose();
  }, 120_000);

  it("on SIGINT too: cuts what is still in flight once SHUTDOWN_GRACE_MS has passed, exits 0", async () => {
    const upstream = await startSandbox({ port: 0, latencyMs: 5000 });
    sandboxes.push(upstream);
    const gateway = spawnLogged(process.execPath, ["src/main.ts"], {
      UPSTREAM_URL: upstream.url,
      SHUTDOWN_GRACE_MS: "300",
    });
    const url = await urlOf(gateway.stdout);
    const slow = post(url, "{ organization { name } }").catch((error: Error) => error);
    // The operation's request (the start-up's reachability probe carries no key).
    await until(
      () => upstream.requests.some((request) => request.headers.authorization !== undefined),
      "the upstream request",
    );
    const signalled = Date.now();
    gateway.child.kill("SIGINT");
    const [code] = await gateway.exited;
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(4000);
    expect(await slow).toBeInstanceOf(Error);
  }, 120_000);

  it("npm start hands SIGTERM to the serving process", async () => {
    const npm = spawnLogged("npm", ["start", "--silent"], {
      HOME: process.env.HOME ?? "",
    });
    const url = await urlOf(npm.stdout);
    expect((await fetch(`${url.replace("/graphql", "")}/healthz`)).status).toBe(200);
    npm.child.kill("SIGTERM");
    await npm.exited;
    await until(() => npm.stdout().includes("drained, exiting"), "the gateway to drain");
    // The gateway itself is gone, not left serving as an orphan.
    expect(await connectError(Number(new URL(url).port))).toBe("ECONNREFUSED");
  }, 120_000);
});
