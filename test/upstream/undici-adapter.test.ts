import { createRequire } from "node:module";
import { Pool } from "undici";
import { describe, expect, it } from "vitest";
import { createUpstreamClient } from "../../src/upstream/client.ts";
import {
  createPool,
  UNDICI_ADAPTER,
  UNDICI_POOL_MODULE,
} from "../../src/upstream/undici-adapter.ts";
import { installedVersion, itRunsOnItsRelease } from "../support/adapter-pin.ts";
import { sendJson, startRecordingUpstream } from "./recording-upstream.ts";

// What src/upstream/undici-adapter.ts relies on in undici beyond its public face, each fact held
// here and named after the adapter, so an upgrade that moves one fails before any call differs.
const { name } = UNDICI_ADAPTER;

describe(`${name} (undici ${installedVersion("undici")})`, () => {
  itRunsOnItsRelease(UNDICI_ADAPTER, "undici");

  it(`finds undici's own Pool class at ${UNDICI_POOL_MODULE}`, () => {
    const loaded = createRequire(import.meta.url)(UNDICI_POOL_MODULE);
    expect(loaded, `${name}: ${UNDICI_POOL_MODULE} is no longer undici's Pool`).toBe(Pool);
    const pool = createPool("http://127.0.0.1:9", { connections: 1 });
    expect(pool, `${name}: createPool makes no Pool`).toBeInstanceOf(Pool);
    return pool.close();
  });

  it("serves the upstream client's calls through that Pool", async () => {
    const upstream = await startRecordingUpstream((_request, res) =>
      sendJson(res, 200, { id: "org_1" }),
    );
    const client = createUpstreamClient({ baseUrl: upstream.url });
    try {
      const answer = await client.request<{ id: string }>({
        method: "GET",
        path: "/v1/organization",
        authorization: "Bearer k",
      });
      expect(answer.body, `${name}: a call through the adapter's Pool`).toEqual({ id: "org_1" });
    } finally {
      await client.close();
      await upstream.close();
    }
  });
});
