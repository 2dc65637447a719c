import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { SEED_IDS } from "../src/sandbox/seed-data.ts";
import type { Sandbox } from "../src/sandbox/server.ts";
import { type Child, freePort, spawnServer } from "./processes.ts";

/**
 * The peer: Hive Gateway serving a supergraph that Mesh Compose generates from the sandbox's own
 * OpenAPI document. Installed for the bench only (bench/peer has its own package.json and lock).
 */
const dir = "bench/peer";

export async function startPeer(upstream: Sandbox): Promise<Child> {
  if (!existsSync(`${dir}/node_modules`)) {
    execFileSync("npm", ["ci", "--prefix", dir, "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
  // The supergraph names the upstream's address, so it is composed for this run's sandbox, in files
  // of its own (by the sandbox's port): the gateway watches its supergraph, and a second peer over
  // another sandbox in the same run must not overwrite the first one's (bench/peer/.gitignore).
  const port = new URL(upstream.url).port;
  const openapi = `openapi.${port}.json`;
  const supergraph = `supergraph.${port}.graphql`;
  const doc = await (await fetch(`${upstream.url}/v1/openapi.json`)).text();
  writeFileSync(`${dir}/${openapi}`, doc);
  execFileSync(
    process.execPath,
    ["node_modules/@graphql-mesh/compose-cli/esm/bin.js", "-o", supergraph],
    {
      cwd: dir,
      env: { ...process.env, PEER_UPSTREAM: upstream.url, PEER_OPENAPI: `./${openapi}` },
      // Piped, not shown: a failed composition throws with its output in the error.
      stdio: "pipe",
    },
  );
  const listen = await freePort();
  const child = await spawnServer(
    [
      `${dir}/node_modules/@graphql-hive/gateway/dist/bin.js`,
      "supergraph",
      `${dir}/${supergraph}`,
      "-h",
      "127.0.0.1",
      "-p",
      String(listen),
    ],
    { LOG_LEVEL: "error" },
    `http://127.0.0.1:${listen}`,
  );
  return {
    ...child,
    async stop() {
      await child.stop();
      rmSync(`${dir}/${openapi}`, { force: true });
      rmSync(`${dir}/${supergraph}`, { force: true });
    },
  };
}

/** The single-resource query (bench/queries.ts SINGLE) in the peer's generated schema. */
export const PEER_SINGLE = `{ getAgent(agentId: "${SEED_IDS.acmeAgent}") { ... on Agent { id name status greeting } } }`;

/** The distinct-resource query (bench/queries.ts DISTINCT) in the peer's generated schema. */
export const PEER_DISTINCT =
  "query Agent($id: String!) { getAgent(agentId: $id) { ... on Agent { id name status greeting } } }";

/**
 * The dashboard (bench/queries.ts DASHBOARD) in the peer's schema: the same resources and fields.
 * Generated fields answer unions (the resource or Error), hence the inline fragments; voicegraph's
 * `stats` is the whole stats object (JSONObject), so every field of the peer's stats types is
 * selected; a conversation's contact is its contactId and the contactStats link (mesh.config.ts).
 */
export const PEER_DASHBOARD = `{
  getOrganization { ... on Organization { name timezone } }
  getAgent(agentId: "${SEED_IDS.acmeAgent}") { ... on Agent { id name status voiceConfigs { id } } }
  getAgentStats(agentId: "${SEED_IDS.acmeAgent}") {
    ... on AgentStats {
      agentId totalConversations activeConversations
      byStatus { PENDING IN_PROGRESS SUCCESS FAILED UNKNOWN NO_ANSWER VOICEMAIL }
      byChannel { VOICE CHAT SMS }
      averageDurationSeconds lastConversationAt
    }
  }
  listConversations(limit: 50) {
    ... on ConversationPage {
      items {
        id status
        agent { ... on Agent { id name } }
        contactId
        contactStats {
          ... on ContactStats {
            contactId totalConversations inbound outbound
            byStatus { PENDING IN_PROGRESS SUCCESS FAILED UNKNOWN NO_ANSWER VOICEMAIL }
            totalDurationSeconds lastInteractionAt
          }
        }
      }
    }
  }
  listCampaigns(limit: 10) { ... on CampaignPage { items { id name status } } }
}`;
