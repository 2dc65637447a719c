import { createClient } from "graphql-ws";
import { key, LIVE, render, url, variables } from "./live-common.ts";

const ws = createClient({
  url: url.replace(/^http/, "ws"),
  connectionParams: { Authorization: key },
});
ws.subscribe(
  { query: LIVE, variables },
  { next: render, error: console.error, complete: () => {} },
);
