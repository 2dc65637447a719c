import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { GraphQLWsLink } from "@apollo/client/link/subscriptions";
import { createClient } from "graphql-ws";
import { isLive, key, LIVE, render, url, variables } from "./live-common.ts";

const ws = createClient({
  url: url.replace(/^http/, "ws"),
  connectionParams: { Authorization: key },
});
// `@live` queries over graphql-ws (or a graphql-sse link), everything else over HTTP.
const link = ApolloLink.split(
  ({ query, variables }) => isLive(query, variables),
  new GraphQLWsLink(ws),
  new HttpLink({ uri: url, headers: { authorization: key } }),
);
const client = new ApolloClient({ link, cache: new InMemoryCache() });
// Each pushed result lands in the normalised cache: every query showing the agent updates.
client.watchQuery({ query: gql(LIVE), variables }).subscribe(render);
