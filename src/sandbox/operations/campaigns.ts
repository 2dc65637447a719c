import type { CursorPosition, CursorScope } from "../cursor.ts";
import { ApiError, notFound } from "../error-codes.ts";
import { deleted, type Operation, type OperationContext, ok, param } from "../operation-context.ts";
import { CampaignStatus } from "../vocabulary.ts";
import type { WireCampaign, WireCursorPage, WireRetryCampaignResponse } from "../wire-shapes.ts";

const SORT = "createdAt:asc,id:asc";

function isAfter(campaign: WireCampaign, position: CursorPosition): boolean {
  if (campaign.createdAt !== position.createdAt) return campaign.createdAt > position.createdAt;
  return campaign.id > position.id;
}

function byCreatedAtAsc(a: WireCampaign, b: WireCampaign): number {
  return isAfter(a, b) ? 1 : -1;
}

function findCampaign(ctx: OperationContext): WireCampaign {
  const id = param(ctx, "campaignId");
  const campaign = ctx.org.campaigns.get(id);
  if (campaign === undefined) throw notFound("Campaign", id);
  return campaign;
}

/**
 * Assumed `GET /v1/campaigns`: cursor form, oldest first. The cursor holds the (createdAt, id)
 * of the last item served, so deleting campaigns between pages neither skips nor repeats any.
 */
export const listCampaigns: Operation = (ctx) => {
  // The common bound (1–100) is validated; the endpoint's own tighter bound, when configured,
  // shortens the page instead, as "an endpoint may set a tighter bound" allows.
  const asked = ctx.query.int("limit", { fallback: 25, min: 1, max: 100 });
  const limit = Math.min(asked, ctx.options.campaignsMaxLimit);
  const status = ctx.query.oneOf("status", CampaignStatus.options);
  const scope: CursorScope = {
    organizationId: ctx.org.organization.id,
    list: "campaigns",
    filters: status === undefined ? {} : { status },
    sort: SORT,
  };
  const cursor = ctx.query.string("cursor");
  const after = cursor === undefined ? undefined : ctx.cursors.decode(cursor, scope, ctx.nowMs);
  const matching = [...ctx.org.campaigns.values()]
    .filter((c) => (status === undefined || c.status === status) && (!after || isAfter(c, after)))
    .sort(byCreatedAtAsc);
  const items = matching.slice(0, limit);
  const last = items.at(-1);
  const body: WireCursorPage<WireCampaign> = {
    items,
    nextCursor:
      matching.length > limit && last !== undefined
        ? ctx.cursors.encode(scope, { createdAt: last.createdAt, id: last.id }, ctx.nowMs)
        : null,
  };
  return ok(body);
};

/** Assumed `GET /v1/campaigns/{campaignId}`. */
export const getCampaign: Operation = (ctx) => ok(findCampaign(ctx));

/** Operation 11: 204 (or the dialect's 200 body); a RUNNING campaign must be stopped first (409). */
export const deleteCampaign: Operation = (ctx) => {
  const campaign = findCampaign(ctx);
  if (campaign.status === "RUNNING") {
    throw new ApiError("CONFLICT", "A RUNNING campaign cannot be deleted.", {
      id: campaign.id,
      status: campaign.status,
    });
  }
  ctx.org.campaigns.delete(campaign.id);
  return deleted(ctx, campaign.id);
};

/** Operation 12: failed rows go back to the queue and the campaign runs again. */
export const retryCampaign: Operation = (ctx) => {
  const campaign = findCampaign(ctx);
  if (campaign.failedRows === 0) {
    throw new ApiError("CONFLICT", "The campaign has no failed rows to retry.", {
      id: campaign.id,
      failedRows: 0,
    });
  }
  const retriedRows = campaign.failedRows;
  campaign.failedRows = 0;
  campaign.status = "RUNNING";
  campaign.updatedAt = new Date(ctx.nowMs).toISOString();
  const body: WireRetryCampaignResponse = {
    campaignId: campaign.id,
    retriedRows,
    status: "RUNNING",
  };
  // The seed shows no body: a summary of the retry, or the campaign as it now stands.
  return ok(ctx.dialect.retryAnswer === "summary" ? body : campaign);
};
