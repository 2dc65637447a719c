import { resolveConnection } from "../connections/resolve-connection.ts";
import { CAMPAIGN_STATUSES, type CampaignDto, type JsonObject } from "../upstream/dto.ts";
import { Agent } from "./agent.ts";
import { builder } from "./builder.ts";
import { forwardConnectionArgs } from "./connection-args.ts";
import { assertId } from "./ids.ts";
import { enumOrNull, loadEach } from "./load-each.ts";
import { listKey, readOnce } from "./read-once.ts";

export const CampaignStatus = builder.enumType("CampaignStatus", { values: CAMPAIGN_STATUSES });

/** The seed does not show a campaign body: every field may be missing, `raw` keeps it all. */
type CampaignShape = { id: string } & Partial<CampaignDto>;

export const Campaign = builder.loadableNodeRef("Campaign", {
  id: { resolve: (campaign: CampaignShape) => campaign.id },
  load: (ids: string[], context) =>
    loadEach(ids, (id) => context.api.getCampaign(id) as Promise<CampaignShape>),
});

Campaign.implement({
  description: "A batch outbound call campaign.",
  fields: (t) => ({
    name: t.string({ nullable: true, resolve: (c) => c.name ?? null }),
    status: t.field({
      type: CampaignStatus,
      nullable: true,
      resolve: (c) => enumOrNull(CAMPAIGN_STATUSES, c.status),
    }),
    agent: t.field({
      type: Agent,
      nullable: true,
      extensions: { upstreamCalls: 1 },
      resolve: (c) => c.agentId ?? null,
    }),
    totalRows: t.int({ nullable: true, resolve: (c) => c.totalRows ?? null }),
    completedRows: t.int({ nullable: true, resolve: (c) => c.completedRows ?? null }),
    failedRows: t.int({ nullable: true, resolve: (c) => c.failedRows ?? null }),
    scheduledAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => c.scheduledAt ?? null,
    }),
    createdAt: t.field({ type: "DateTime", nullable: true, resolve: (c) => c.createdAt ?? null }),
    updatedAt: t.field({ type: "DateTime", nullable: true, resolve: (c) => c.updatedAt ?? null }),
    raw: t.field({ type: "JSONObject", resolve: (c) => c }),
  }),
});

export const CampaignConnection = builder.connectionObject(
  {
    type: Campaign,
    name: "CampaignConnection",
  },
  { name: "CampaignEdge" },
);

const CampaignFilter = builder.inputType("CampaignFilter", {
  fields: (t) => ({ status: t.field({ type: CampaignStatus }) }),
});

const DeleteCampaignPayload = builder
  .objectRef<{ deletedId: string }>("DeleteCampaignPayload")
  .implement({ fields: (t) => ({ deletedId: t.exposeID("deletedId") }) });

const RetryCampaignPayload = builder
  .objectRef<{ campaignId: string; raw: JsonObject }>("RetryCampaignPayload")
  .implement({
    fields: (t) => ({
      campaign: t.field({
        type: Campaign,
        nullable: true,
        description: "The campaign after the retry started, loaded with one GET when selected.",
        extensions: { upstreamCalls: 1 },
        resolve: (payload) => payload.campaignId,
      }),
      raw: t.field({
        type: "JSONObject",
        description: "The upstream's answer; `{}` when it had no body.",
        resolve: (payload) => payload.raw,
      }),
    }),
  });

builder.queryFields((t) => ({
  campaign: t.field({
    type: Campaign,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: (_root, { id }) => assertId("campaign", id),
  }),
  campaigns: t.field({
    type: CampaignConnection,
    description: "Campaigns, forward only: the upstream pages them with opaque cursors.",
    args: { ...forwardConnectionArgs(t.arg), filter: t.arg({ type: CampaignFilter }) },
    extensions: { upstreamCalls: 2, connection: { defaultSize: 25, forwardOnly: true } },
    resolve: async (_root, { filter, ...args }, context) => {
      const status = filter?.status ?? undefined;
      const connection = await resolveConnection<CampaignShape>(
        {
          name: "campaigns",
          assumedForm: "cursor",
          defaultSize: 25,
          filters: { status },
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
    args: { id: t.arg.id({ required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: async (_root, { id }, context) => {
      await context.api.deleteCampaign(assertId("campaign", id));
      Campaign.getDataloader(context).clear(id);
      return { deletedId: id };
    },
  }),
  retryCampaign: t.field({
    type: RetryCampaignPayload,
    args: { id: t.arg.id({ required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: async (_root, { id }, context) => {
      const raw = await context.api.retryCampaign(assertId("campaign", id));
      Campaign.getDataloader(context).clear(id);
      return { campaignId: id, raw };
    },
  }),
}));
