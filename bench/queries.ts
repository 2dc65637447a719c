import { SEED_IDS } from "../src/sandbox/seed-data.ts";

/** The single-resource query: one agent by ID. */
export const SINGLE = `{ agent(id: "${SEED_IDS.acmeAgent}") { id name status greeting } }`;

/** The dashboard: organization, an agent with voice configs and stats, 50 conversations
 * with their agents and their contacts' stats, and a campaign page. */
export const DASHBOARD = `{
  organization { name timezone }
  agent(id: "${SEED_IDS.acmeAgent}") { id name status voiceConfigs { id } stats }
  conversations(first: 50) { nodes { id status agent { id name } contact { id stats } } }
  campaigns(first: 10) { nodes { id name status } }
}`;

/**
 * The single resource that cannot be shared (bench/distinct.ts): one document, the agent by a
 * variable, as a typed client sends it.
 */
export const DISTINCT = "query Agent($id: ID!) { agent(id: $id) { id name status greeting } }";
