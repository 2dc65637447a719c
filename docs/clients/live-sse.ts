import { applyLiveQueryJSONPatch } from "@n1ru4l/graphql-live-query-patch-json-patch";
import { createClient } from "graphql-sse";
import { key, LIVE, render, url, variables } from "./live-common.ts";

const sse = createClient({ url, headers: { authorization: key } });
// JSON Patches after the first result, on request; the n1ru4l helper hands back whole results.
const results = applyLiveQueryJSONPatch(
  sse.iterate({ query: LIVE, variables, extensions: { livePatch: "json-patch" } }),
);
for await (const result of results) render(result);
