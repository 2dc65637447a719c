import {
  EXTRA_ORGANIZATION_AGENTS,
  extraOrganizationKey,
  extraOrganizationSlug,
} from "../src/sandbox/seed-data.ts";
import type { Request } from "./load.ts";

/**
 * The load that cannot be shared: connection `i` always sends the key of extra organization
 * `i + 1` (the sandbox's `extraOrganizations`), and asks for that organization's agents in turn,
 * from its own offset. So at every moment every request in flight has another key and asks for
 * another resource, and coalescing, a dedupe or a cache keyed by the caller has nothing to share:
 * each operation makes exactly one upstream call, which the bench checks in the upstream's log.
 */
export const DISTINCT_ORGANIZATIONS = 64;

/** The agent that connection `connection` asks for on its `turn`-th request, and its key. */
export function distinctTarget(connection: number, turn: number): { key: string; agent: string } {
  if (connection >= DISTINCT_ORGANIZATIONS) {
    throw new RangeError(`at most ${DISTINCT_ORGANIZATIONS} connections have a key of their own`);
  }
  const n = connection + 1;
  const number = ((connection + turn) % EXTRA_ORGANIZATION_AGENTS) + 1;
  const agent = `agt_${extraOrganizationSlug(n)}_${String(number).padStart(3, "0")}`;
  return { key: extraOrganizationKey(n), agent };
}

const turns = Array.from({ length: EXTRA_ORGANIZATION_AGENTS }, (_, turn) => turn);

/** A GraphQL server's requests: `document` POSTed with the agent as its variable `variable`. */
export function distinctGraphql(document: string, variable = "id") {
  return (connection: number): Request[] =>
    turns.map((turn) => {
      const { key, agent } = distinctTarget(connection, turn);
      return {
        method: "POST",
        path: "/graphql",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ query: document, variables: { [variable]: agent } }),
      };
    });
}

/** The REST GET of each agent, for the raw forwarder and the upstream itself. */
export function distinctRest(connection: number): Request[] {
  return turns.map((turn) => {
    const { key, agent } = distinctTarget(connection, turn);
    return {
      method: "GET",
      path: `/v1/agents/${agent}`,
      headers: { authorization: `Bearer ${key}` },
    };
  });
}
