import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  WHATWG_NODE_ADAPTER,
  writeNodeResponse,
} from "../../src/gateway/lane/whatwg-node-adapter.ts";
import { installedVersion, itRunsOnItsRelease } from "../support/adapter-pin.ts";

// src/gateway/lane/whatwg-node-adapter.ts writes the fast path's answers with yoga's server
// adapter's own utilities: each fact the fast path relies on is held here, named after it.
const { name } = WHATWG_NODE_ADAPTER;

async function served(response: () => Response) {
  const server = createServer((req, res) => {
    void writeNodeResponse(response(), res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    return { status: answer.status, headers: answer.headers, body: await answer.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe(`${name} (@whatwg-node/server ${installedVersion("@whatwg-node/server")})`, () => {
  itRunsOnItsRelease(WHATWG_NODE_ADAPTER, "@whatwg-node/server");

  it("writes a Response's status, headers and body to node:http", async () => {
    const answer = await served(
      () =>
        new Response('{"data":{}}', {
          status: 201,
          headers: { "content-type": "application/json; charset=utf-8", "x-request-id": "r1" },
        }),
    );
    expect(answer.status, `${name}: the status`).toBe(201);
    expect(answer.headers.get("content-type"), `${name}: a header`).toBe(
      "application/json; charset=utf-8",
    );
    expect(answer.headers.get("x-request-id"), `${name}: another header`).toBe("r1");
    expect(answer.body, `${name}: the body`).toBe('{"data":{}}');
  });
});
