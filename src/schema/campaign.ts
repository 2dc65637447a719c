import { resolveConnection } from "../connections/resolve-connection.ts";
import type { CampaignDto } from "../upstream/dto.ts";
import { CAMPAIGN_STATUSES } from "../upstream/enums.ts";
import type { JsonObject } from "../upstream/json.ts";
import { listOf } from "../upstream/operations.ts";
import { Agent, agentOf } from "./agent.ts";
import { builder } from "./builder.ts";
import { forwardConnectionArgs } from "./connection-args.ts";
import { assertId, idRule } from "./ids.ts";
import { enumOrNull, loadEach } from "./load-each.ts";
import { nodeByIdQuery } from "./node-by-id.ts";
import { listKey, readOnce } from "./read-once.ts";
import { carriedFields, RAW_ANSWER, rawField, rawResource } from "./shared-fields.ts";
import { callsOf, connectionOf, listSourceOf } from "./upstream-calls.ts";

export const CampaignStatus = builder.enumType("CampaignStatus", {
  description:
    "A campaign's state (the sandbox's set: the REST API names none); an upstream value the schema does not know resolves to null.",
  values: CAMPAIGN_STATUSES,
});

/** The seed does not show a campaign body: every field may be missing, `raw` keeps it all. */
type CampaignShape = { id: string } & Partial<CampaignDto>;

export const Campaign = builder.loadableNodeRef("Campaign", {
  id: {
    description: "The campaign's ID (`cmp_` prefix).",
    resolve: (campaign: CampaignShape) => campaign.id,
  },
  load: (ids: string[], context) =>
    loadEach(ids, (id) => context.api.getCampaign(id) as Promise<CampaignShape>),
});

Campaign.implement({
  description: "A batch outbound call campaign.",
  fields: (t) => ({
    name: carriedFields(t).string("name", "The campaign's name"),
    status: t.field({
      type: CampaignStatus,
      nullable: true,
      description: "The campaign's state; null when the upstream does not send a known one.",
      resolve: (c) => enumOrNull(CAMPAIGN_STATUSES, c.status),
    }),
    agent: t.field({
      type: Agent,
      nullable: true,
      description: "The campaign's agent, loaded with one GET; null when the upstream names none.",
      extensions: { ...callsOf("getAgent"), sharedByItems: true },
      resolve: (c, _args, context) =>
        typeof c.agentId === "string" ? agentOf(context, c.agentId) : (c.agentId ?? null),
    }),
    totalRows: carriedFields(t).int("totalRows", "How many rows the campaign holds"),
    completedRows: carriedFields(t).int("completedRows", "How many rows have been completed"),
    failedRows: carriedFields(t).int(
      "failedRows",
      "How many rows failed (`retryCampaign` retries them)",
    ),
    scheduledAt: t.expose("scheduledAt", {
      type: "DateTime",
      nullable: true,
      description:
        "When the campaign is scheduled to run (ISO 8601); null when unscheduled or not sent.",
    }),
    createdAt: carriedFields(t).dateTime("createdAt", "When the campaign was created (ISO 8601)"),
    updatedAt: carriedFields(t).dateTime(
      "updatedAt",
      "When the campaign was last changed (ISO 8601)",
    ),
    raw: rawField(t, rawResource("campaign object"), (c) => c),
  }),
});

export const CampaignConnection = builder.connectionObject(
  {
    type: Campaign,
    name: "CampaignConnection",
    description: "A page of campaigns.",
  },
  { name: "CampaignEdge", description: "A campaign and its cursor in the list." },
);

const CampaignFilter = builder.inputType("CampaignFilter", {
  description: "Narrows the campaign list; the upstream does the filtering.",
  fields: (t) => ({
    status: t.field({ type: CampaignStatus, description: "Only campaigns in this state." }),
  }),
});

const DeleteCampaignPayload = builder
  .objectRef<{ deletedId: string }>("DeleteCampaignPayload")
  .implement({
    description: "The result of `deleteCampaign`.",
    fields: (t) => ({
      deletedId: t.exposeID("deletedId", { description: "The ID of the deleted campaign." }),
    }),
  });

const RetryCampaignPayload = builder
  .objectRef<{ campaignId: string; raw: JsonObject }>("RetryCampaignPayload")
  .implement({
    description: "The result of `retryCampaign`.",
    fields: (t) => ({
      campaign: t.field({
        type: Campaign,
        nullable: true,
        description: "The campaign after the retry started, loaded with one GET when selected.",
        extensions: callsOf("getCampaign"),
        resolve: (payload) => payload.campaignId,
      }),
      raw: rawField(t, RAW_ANSWER, (payload) => payload.raw),
    }),
  });

nodeByIdQuery("campaign", Campaign, {
  noun: "A campaign",
  how: " (GET /v1/campaigns/{campaignId})",
  calls: callsOf("getCampaign"),
});

builder.queryFields((t) => ({
  campaigns: t.field({
    type: CampaignConnection,
    // Nullable, as root fields that call upstream are: a failure here leaves siblings intact.
    nullable: true,
    description: `The organization's campaigns, forward only: the upstream pages them with opaque cursors (GET /v1/campaigns; ${listOf("listCampaigns").defaultSize} a page by default).`,
    args: { ...forwardConnectionArgs(t.arg), filter: t.arg({ type: CampaignFilter }) },
    extensions: connectionOf("listCampaigns"),
    resolve: async (_root, { filter, ...args }, context) => {
      const status = filter?.status ?? undefined;
      const connection = await resolveConnection<CampaignShape>(
        {
          name: "campaigns",
          ...listSourceOf("listCampaigns"),
          filters: { status },
          cursorKey: context.cursorKey,
          itemId: (campaign) => campaign.id,
          fetch: (params) => {
            const request = { ...params, status };
            return readOnce(context, listKey("campaigns", request), () =>
              context.api.listCampaigns(request),
            );
          },
        },
        args,
      );
      const loader = Campaign.getDataloader(context);
      for (const { node } of connection.edges) loader.prime(node.id, node);
      return connection;
    },
  }),
}));

builder.mutationFields((t) => ({
  deleteCampaign: t.field({
    type: DeleteCampaignPayload,
    description: "Deletes a campaign (DELETE /v1/campaigns/{campaignId}).",
    args: { id: t.arg.id({ required: true, extensions: idRule("campaign") }) },
    extensions: callsOf("deleteCampaign"),
    resolve: async (_root, { id }, context) => {
      await context.api.deleteCampaign(assertId("campaign", id));
      Campaign.getDataloader(context).clear(id);
      return { deletedId: id };
    },
  }),
  retryCampaign: t.field({
    type: RetryCampaignPayload,
    description:
      "Retries a campaign's failed rows; sends no body (POST /v1/campaigns/{campaignId}/retry).",
    args: { id: t.arg.id({ required: true, extensions: idRule("campaign") }) },
    extensions: callsOf("retryCampaign"),
    resolve: async (_root, { id }, context) => {
      const raw = await context.api.retryCampaign(assertId("campaign", id));
      Campaign.getDataloader(context).clear(id);
      return { campaignId: id, raw };
    },
  }),
}));
