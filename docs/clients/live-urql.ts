import { Client, fetchExchange, subscriptionExchange } from "@urql/core";
import { createClient } from "graphql-ws";
import { isLive, key, LIVE, render, url, variables } from "./live-common.ts";

const ws = createClient({
  url: url.replace(/^http/, "ws"),
  connectionParams: { Authorization: key },
});
const client = new Client({
  url,
  fetchOptions: { headers: { authorization: key } },
  exchanges: [
    // Live queries go where subscriptions go: to a transport that takes several results.
    subscriptionExchange({
      isSubscriptionOperation: (operation) =>
        operation.kind === "subscription" ||
        (operation.kind === "query" && isLive(operation.query, operation.variables)),
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({
          unsubscribe: ws.subscribe({ ...request, query: request.query ?? "" }, sink),
        }),
      }),
    }),
    fetchExchange,
  ],
});
client.query(LIVE, variables, { requestPolicy: "network-only" }).subscribe(render);
