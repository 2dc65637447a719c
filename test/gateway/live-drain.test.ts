import { describe, expect, it } from "vitest";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { listen } from "../../src/gateway/transport/server.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { createUpstreamClient } from "../../src/upstream/client.ts";
import type { Harness } from "./harness.ts";
import { followSse, LIVE_AGENT } from "./live-support.ts";

describe("a drain", () => {
  it("ends every live query with SHUTTING_DOWN", async ({ onTestFinished }) => {
    const sandbox = await startSandbox({ port: 0 });
    const upstream = createUpstreamClient({ baseUrl: sandbox.url });
    const gateway = createGateway({ upstream, logging: false, pollIntervalMs: 100 });
    const server = await listen(gateway, 0, "127.0.0.1");
    onTestFinished(async () => {
      await upstream.close();
      await sandbox.close();
    });
    const live = followSse({ url: server.url } as Harness, LIVE_AGENT);
    await live.count(1);
    await server.drain(2_000);
    await live.ended.catch(() => undefined);
    const last = live.results.at(-1);
    expect(last?.errors?.map((error) => error.extensions?.code)).toEqual(["SHUTTING_DOWN"]);
    expect(gateway.liveHub.pollerCount).toBe(0);
  });
});
