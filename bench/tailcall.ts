import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { SEED_IDS } from "../src/sandbox/seed-data.ts";
import type { Sandbox } from "../src/sandbox/server.ts";
import { type Child, freePort, spawnServer } from "./processes.ts";

/**
 * The second peer: Tailcall 1.0.0, a REST-to-GraphQL gateway in Rust (from npm; 1.6.14 needs
 * glibc 2.38, newer than this machine's), configured as its users would: `@http` per REST
 * operation with the caller's `Authorization` allowed upstream, `@call` for a conversation's
 * agent and its contact's stats, and `dedupe` on those links (its own in-flight deduplication).
 * Installed for the bench only (bench/tailcall has its own package.json and lock).
 */
const dir = "bench/tailcall";
const binary = `${dir}/node_modules/@tailcallhq/core-linux-x64-gnu/bin/tailcall`;

/** Its configuration over one sandbox: the REST operations the two bench queries need. */
export function tailcallConfig(upstream: string, port: number): string {
  return `schema @server(port: ${port}, hostname: "127.0.0.1") @upstream(allowedHeaders: ["authorization"]) {
  query: Query
}

type Query {
  organization: Organization @http(url: "${upstream}/v1/organization")
  agent(id: String!): Agent @http(url: "${upstream}/v1/agents/{{.args.id}}", dedupe: true)
  agentStats(id: String!): JSON @http(url: "${upstream}/v1/agents/{{.args.id}}/stats")
  contactStats(id: String!): JSON @http(url: "${upstream}/v1/contacts/{{.args.id}}/stats", dedupe: true)
  conversations(limit: Int): ConversationPage
    @http(url: "${upstream}/v1/conversations", query: [{key: "limit", value: "{{.args.limit}}"}])
  campaigns(limit: Int): CampaignPage
    @http(url: "${upstream}/v1/campaigns", query: [{key: "limit", value: "{{.args.limit}}"}])
}

type Organization { id: String name: String timezone: String }
type VoiceConfig { id: String }
type Agent { id: String name: String status: String greeting: String voiceConfigs: [VoiceConfig] }
type ConversationPage { items: [Conversation] total: Int }
type Conversation {
  id: String
  status: String
  agentId: String
  contactId: String
  agent: Agent @call(steps: [{query: "agent", args: {id: "{{.value.agentId}}"}}])
  contactStats: JSON @call(steps: [{query: "contactStats", args: {id: "{{.value.contactId}}"}}])
}
type CampaignPage { items: [Campaign] }
type Campaign { id: String name: String status: String }
`;
}

export async function startTailcall(upstream: Sandbox): Promise<Child> {
  if (!existsSync(binary)) {
    execFileSync("npm", ["ci", "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund"], {
      stdio: "inherit",
    });
  }
  const port = await freePort();
  const config = `${dir}/tailcall.${port}.graphql`;
  writeFileSync(config, tailcallConfig(upstream.url, port));
  const child = await spawnServer(
    ["start", config],
    // Its per-request INFO lines would cost it throughput that the others do not pay.
    { TAILCALL_LOG_LEVEL: "error", TC_LOG_LEVEL: "error" },
    `http://127.0.0.1:${port}`,
    binary,
  );
  return {
    ...child,
    async stop() {
      await child.stop();
      rmSync(config, { force: true });
    },
  };
}

/** The single-resource query (bench/queries.ts SINGLE) in Tailcall's schema. */
export const TAILCALL_SINGLE = `{ agent(id: "${SEED_IDS.acmeAgent}") { id name status greeting } }`;

/** The dashboard (bench/queries.ts DASHBOARD) in Tailcall's schema: the same resources and fields. */
export const TAILCALL_DASHBOARD = `{
  organization { name timezone }
  agent(id: "${SEED_IDS.acmeAgent}") { id name status voiceConfigs { id } }
  agentStats(id: "${SEED_IDS.acmeAgent}")
  conversations(limit: 50) { items { id status agent { id name } contactId contactStats } }
  campaigns(limit: 10) { items { id name status } }
}`;

/** The distinct-resource query (bench/queries.ts DISTINCT) in Tailcall's schema. */
export const TAILCALL_DISTINCT =
  "query Agent($id: String!) { agent(id: $id) { id name status greeting } }";
