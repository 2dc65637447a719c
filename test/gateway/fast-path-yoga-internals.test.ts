import { readFileSync } from "node:fs";
import { createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.ts";

// The fast path (src/gateway/http/fast-path.ts) drives yoga through what the YogaServer its
// plugins are given holds, not only yoga's public API. Each of those facts is pinned here by name,
// so a yoga release that changes one fails this test, naming it, before any answer differs.

const yogaVersion = (
  JSON.parse(
    readFileSync(new URL("../../node_modules/graphql-yoga/package.json", import.meta.url), "utf8"),
  ) as { version: string }
).version;

function serverSeenByPlugins(extra: Plugin[] = []) {
  let seen: Record<string, unknown> | undefined;
  const probe: Plugin = {
    onYogaInit({ yoga }) {
      seen = yoga as unknown as Record<string, unknown>;
    },
  };
  const yoga = createYoga({ schema, plugins: [probe, ...extra], logging: false });
  return { yoga, server: seen as Record<string, unknown> };
}

describe(`the yoga internals the fast path relies on (graphql-yoga ${yogaVersion})`, () => {
  it("is a graphql-yoga 5 release", () => {
    expect(yogaVersion).toMatch(/^5\./);
  });

  it("hands plugins the server itself in onYogaInit, with `graphqlEndpoint` and `fetchAPI`", () => {
    const { server } = serverSeenByPlugins();
    expect(server.graphqlEndpoint).toBe("/graphql");
    const fetchAPI = server.fetchAPI as Record<string, unknown>;
    for (const name of ["Headers", "Response", "URL"])
      expect(typeof fetchAPI[name]).toBe("function");
  });

  it("keeps every plugin, in order, as an array `plugins`, where their onRequest/onResponse hooks are found", () => {
    const onRequest = () => undefined;
    const onResponse = () => undefined;
    const { server } = serverSeenByPlugins([{ onRequest, onResponse }]);
    const plugins = server.plugins as Array<Record<string, unknown> | undefined>;
    expect(Array.isArray(plugins)).toBe(true);
    expect(plugins.some((plugin) => plugin?.onRequest === onRequest)).toBe(true);
    expect(plugins.some((plugin) => plugin?.onResponse === onResponse)).toBe(true);
  });

  it("has `handle(request, serverContext)` answering a Fetch-like request with a Response", async () => {
    const { server } = serverSeenByPlugins();
    expect(typeof server.handle).toBe("function");
    const request = new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    const handle = server.handle as (request: Request, context: object) => Promise<Response>;
    const response = await handle(request, {});
    expect(await response.json()).toEqual({ data: { __typename: "Query" } });
  });

  it("has no `instrumentation` unless a plugin brings one", () => {
    expect(serverSeenByPlugins().server.instrumentation).toBeUndefined();
  });
});
