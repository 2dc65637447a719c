import { SEED_BASE_TIME } from "./seed-data.ts";
import type { AgentRecord } from "./store.ts";
import { AgentStatus, CampaignStatus } from "./vocabulary.ts";
import type { WireCampaign } from "./wire-shapes.ts";

const HOUR_MS = 3_600_000;

/** An ISO timestamp a fixed number of hours after the seed's base time. */
export function isoAt(hoursAfterBase: number): string {
  return new Date(SEED_BASE_TIME + hoursAfterBase * HOUR_MS).toISOString();
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** Named agents are written out in full; the rest only exist to fill list pages. */
export function simpleAgents(slug: string, from: number, to: number): AgentRecord[] {
  const agents: AgentRecord[] = [];
  for (let n = from; n <= to; n++) {
    const at = isoAt(n);
    agents.push({
      id: `agt_${slug}_${pad(n, 3)}`,
      name: `Outreach Agent ${pad(n, 3)}`,
      primaryLanguage: "en-US",
      status: AgentStatus.options[n % AgentStatus.options.length] ?? "ACTIVE",
      systemPrompt: "You make short, friendly outbound reminder calls.",
      greeting: "Hello, this is an automated reminder.",
      model: "gpt-4o-mini",
      metadata: { team: n % 2 === 0 ? "outreach" : "follow-up" },
      createdAt: at,
      updatedAt: at,
      supportedLanguages: ["en-US"],
      voiceConfigs: [],
    });
  }
  return agents;
}

/**
 * Filler campaigns numbered `from..to`, cycling through every status; rows are consistent with
 * the status (drafts have done nothing, failed ones have failed rows, some runs have failures).
 */
export function generatedCampaigns(
  slug: string,
  from: number,
  to: number,
  agentIds: string[],
): WireCampaign[] {
  const campaigns: WireCampaign[] = [];
  for (let n = from; n <= to; n++) {
    const status = CampaignStatus.options[n % CampaignStatus.options.length] ?? "DRAFT";
    const totalRows = 40 + ((n * 17) % 160);
    let completedRows = 0;
    let failedRows = 0;
    if (status === "COMPLETED") {
      failedRows = n % 3 === 0 ? 0 : (n % 9) + 1;
      completedRows = totalRows - failedRows;
    } else if (status === "RUNNING" || status === "PAUSED") {
      completedRows = Math.floor(totalRows / 2);
      failedRows = n % 2;
    } else if (status === "FAILED") {
      completedRows = Math.floor(totalRows / 4);
      failedRows = totalRows - completedRows;
    }
    const createdAt = isoAt(48 + n * 6);
    campaigns.push({
      id: `cmp_${slug}_${pad(n, 2)}`,
      name: `Campaign ${pad(n, 2)}`,
      status,
      agentId: status === "DRAFT" ? null : (agentIds[n % agentIds.length] ?? null),
      totalRows,
      completedRows,
      failedRows,
      scheduledAt: status === "DRAFT" ? null : isoAt(48 + n * 6 + 24),
      createdAt,
      updatedAt: createdAt,
    });
  }
  return campaigns;
}
