import type { Socket } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { EXAMPLE_OPERATION } from "../../src/gateway/pages/example-operation.ts";
import { type ListeningGateway, listen } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { chromiumPath } from "./chromium.ts";

/**
 * GraphiQL as a newcomer meets it after `npm start`: the page in headless Chromium (Debian's
 * package, driven by playwright-core), with the demo key's header and the example operations,
 * its first load weighed in bytes on the wire, then the example run and a `@live` query followed.
 */

/** The budget of a first load: page, script, styles, workers and the schema's introspection. */
const FIRST_LOAD_BYTES = 3_000_000;

let sandbox: Sandbox;
let upstream: UpstreamClient;
let server: ListeningGateway;
let browser: Browser;
/** Bytes the gateway wrote to every socket, closed or still open. */
let bytesWritten: () => number;

beforeAll(async () => {
  const executablePath = chromiumPath();
  // New calls start often, so the live query has changes to push.
  sandbox = await startSandbox({ port: 0, callIntervalMs: 700 });
  upstream = createUpstreamClient({ baseUrl: sandbox.url });
  const gateway = createGateway({
    upstream,
    logging: false,
    pollIntervalMs: 200,
    graphiql: {
      headers: JSON.stringify({ Authorization: `Bearer ${DEMO_KEYS.acme}` }),
      defaultQuery: EXAMPLE_OPERATION,
    },
  });
  server = await listen(gateway, 0, "127.0.0.1");
  let closed = 0;
  const open = new Set<Socket>();
  server.server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.on("close", () => {
      closed += socket.bytesWritten;
      open.delete(socket);
    });
  });
  bytesWritten = () => [...open].reduce((sum, socket) => sum + socket.bytesWritten, closed);
  browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await upstream?.close();
  await sandbox?.close();
});

/** The text of GraphiQL's response pane (its editor draws the lines in view, spaces unbroken). */
const responseText = (page: Page) =>
  page
    .evaluate(() => document.querySelector(".graphiql-response")?.textContent ?? "")
    .then((text) => text.replace(/\u00a0/g, " "));

/** Runs one of the document's operations, as a user picks it from the run button's menu. */
async function runOperation(page: Page, name: string) {
  await page.click(".graphiql-execute-button");
  await page.getByRole("menuitem").filter({ hasText: name }).first().click();
}

describe("GraphiQL in a real browser", () => {
  it("loads under 3 MB on the wire, runs the example and follows a live query", async () => {
    const page = await browser.newPage();
    const encodings = new Map<string, string | undefined>();
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith("/graphiql/assets/")) {
        encodings.set(path.split("/").at(-1) as string, response.headers()["content-encoding"]);
      }
    });
    const before = bytesWritten();
    await page.goto(`${server.url}/graphql`, { waitUntil: "networkidle" });
    await page.waitForSelector(".graphiql-execute-button");
    const firstLoad = bytesWritten() - before;
    expect(firstLoad).toBeLessThan(FIRST_LOAD_BYTES);
    expect(encodings.get("graphiql.js")).toBe("br");
    expect(encodings.get("graphiql.css")).toBe("br");

    await runOperation(page, "Overview");
    await expect
      .poll(() => responseText(page), { timeout: 20_000 })
      .toContain('"name": "Acme Health"');

    // The live query answers over one stream and pushes each change to the pane.
    const streams: string[] = [];
    page.on("response", (response) => {
      const type = response.headers()["content-type"] ?? "";
      const request = response.request();
      if (type.startsWith("text/event-stream")) {
        streams.push(decodeURIComponent(`${request.url()} ${request.postData() ?? ""}`));
      }
    });
    await runOperation(page, "LiveCalls");
    await expect.poll(() => responseText(page), { timeout: 20_000 }).toContain('"conversations"');
    const first = await responseText(page);
    await expect.poll(() => responseText(page), { timeout: 20_000 }).not.toBe(first);
    expect(
      streams.some((sent) => sent.includes("@live")),
      streams.join("\n"),
    ).toBe(true);
    expect(bytesWritten() - before).toBeLessThan(FIRST_LOAD_BYTES);
    await page.close();
  });
});
