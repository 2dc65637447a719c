import { isLiveQueryOperationDefinitionNode } from "@n1ru4l/graphql-live-query";
import { type DocumentNode, getOperationAST } from "graphql";

// `npm start`'s address and demo key; another gateway's through the environment.
export const url = process.env.GRAPHQL_URL ?? "http://127.0.0.1:4000/graphql";
export const key = process.env.AUTHORIZATION ?? "Bearer sk_test_acme";

/** Whether an operation is a live query, as the ecosystem's helper reads the directive. */
export function isLive(query: DocumentNode, variables?: unknown): boolean {
  const operation = getOperationAST(query);
  const values = (variables ?? undefined) as Record<string, unknown> | undefined;
  return operation ? isLiveQueryOperationDefinitionNode(operation, values) : false;
}

/** Kept current: rename the agent (`updateAgent`) and the new name is pushed. */
export const LIVE = /* GraphQL */ `
  query Desk($id: ID!) @live {
    agent(id: $id) { id name status }
  }
`;
export const variables = { id: "agt_acme_reception" };

/** One line per result: what a page would draw. */
export function render(result: { data?: unknown; error?: unknown; errors?: unknown }): void {
  console.log(JSON.stringify({ data: result.data, errors: result.errors ?? result.error }));
}
