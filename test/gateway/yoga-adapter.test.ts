import { createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import {
  YOGA_ADAPTER,
  type YogaCore,
  yogaCoreOf,
} from "../../src/gateway/assembly/yoga-adapter.ts";
import { schema } from "../../src/schema/index.ts";
import { installedVersion, itRunsOnItsRelease } from "../support/adapter-pin.ts";

// src/gateway/assembly/yoga-adapter.ts drives yoga through what the server its plugins are given holds,
// not only yoga's public API. Each of those facts is held here, named after the adapter, so a
// yoga release that changes one fails this test before any answer differs.
const { name } = YOGA_ADAPTER;

/** The adapter's view of a yoga server, taken, as the gateway takes it, in onYogaInit. */
function coreSeenByPlugins(extra: Plugin[] = []): YogaCore {
  let seen: YogaCore | undefined;
  const probe: Plugin = {
    onYogaInit({ yoga }) {
      seen = yogaCoreOf(yoga);
    },
  };
  createYoga({ schema, plugins: [probe, ...extra], logging: false });
  return seen as YogaCore;
}

describe(`${name} (graphql-yoga ${installedVersion("graphql-yoga")})`, () => {
  itRunsOnItsRelease(YOGA_ADAPTER, "graphql-yoga");

  it("is handed the server itself in onYogaInit, with `graphqlEndpoint` and `fetchAPI`", () => {
    const core = coreSeenByPlugins();
    expect(core.graphqlEndpoint, `${name}: graphqlEndpoint`).toBe("/graphql");
    for (const api of ["Headers", "Response", "URL"] as const)
      expect(typeof core.fetchAPI?.[api], `${name}: fetchAPI.${api}`).toBe("function");
  });

  it("finds every plugin, in order, with its onRequest/onResponse hooks and its own functions", () => {
    const onRequest = () => undefined;
    const onResponse = () => undefined;
    const judge = () => undefined;
    const core = coreSeenByPlugins([{ onRequest, onResponse, judge } as Plugin]);
    expect(core.hooks("onRequest"), `${name}: plugins' onRequest`).toContain(onRequest);
    expect(core.hooks("onResponse"), `${name}: plugins' onResponse`).toContain(onResponse);
    expect(core.pluginFunctions("judge"), `${name}: plugins' own functions`).toEqual([judge]);
  });

  it("has `handle(request, serverContext)` answering a Fetch-like request with a Response", async () => {
    const core = coreSeenByPlugins();
    expect(typeof core.handle, `${name}: handle`).toBe("function");
    const request = new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    const response = (await core.handle(request, {})) as Response;
    expect(await response.json(), `${name}: handle's answer`).toEqual({
      data: { __typename: "Query" },
    });
  });

  it("sees no instrumentation unless a plugin brings one, and a logger with `error`", () => {
    const core = coreSeenByPlugins();
    expect(core.instrumented, `${name}: instrumentation`).toBe(false);
    expect(typeof core.logger?.error, `${name}: logger.error`).toBe("function");
  });
});
