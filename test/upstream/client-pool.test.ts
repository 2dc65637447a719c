import { Pool } from "undici";
import { describe, expect, it } from "vitest";
import { createUpstreamClient } from "../../src/upstream/client.ts";
import { sendJson, startRecordingUpstream } from "./recording-upstream.ts";

describe("the upstream client's pool", () => {
  it("is undici's own Pool, loaded from its module rather than undici's index", async () => {
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
      expect(answer.body).toEqual({ id: "org_1" });
      const loaded = (await import("node:module")).createRequire(import.meta.url)(
        "undici/lib/dispatcher/pool.js",
      );
      expect(loaded).toBe(Pool);
    } finally {
      await client.close();
      await upstream.close();
    }
  });
});
