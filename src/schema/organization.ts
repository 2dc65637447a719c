import {
  ORGANIZATION_WRITABLE_FIELDS,
  type OrganizationDto,
  type UpdateOrganizationBody,
} from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import { patchBody } from "./patch-body.ts";
import { readOnce } from "./read-once.ts";

export const Organization = builder.objectRef<OrganizationDto>("Organization").implement({
  description: "The organization the API key acts for.",
  fields: (t) => ({
    ...Object.fromEntries(
      ORGANIZATION_WRITABLE_FIELDS.map((field) => [
        field,
        t.string({ nullable: true, resolve: (organization) => stringOrNull(organization[field]) }),
      ]),
    ),
    raw: t.field({
      type: "JSONObject",
      description:
        "The upstream's organization object as received, fields beyond the nine included.",
      resolve: (organization) => organization,
    }),
  }),
});

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

const UpdateOrganizationInput = builder.inputType("UpdateOrganizationInput", {
  description: "Only the fields given are sent; omitted fields keep their value.",
  fields: (t) =>
    Object.fromEntries(ORGANIZATION_WRITABLE_FIELDS.map((field) => [field, t.string()])) as {
      [K in (typeof ORGANIZATION_WRITABLE_FIELDS)[number]]: ReturnType<typeof t.string>;
    },
});

const UpdateOrganizationPayload = builder
  .objectRef<{ organization: OrganizationDto }>("UpdateOrganizationPayload")
  .implement({
    fields: (t) => ({ organization: t.expose("organization", { type: Organization }) }),
  });

builder.queryField("organization", (t) =>
  t.field({
    type: Organization,
    extensions: { upstreamCalls: 1 },
    resolve: (_root, _args, context) =>
      readOnce(context, "organization", () => context.api.getOrganization()),
  }),
);

builder.mutationField("updateOrganization", (t) =>
  t.field({
    type: UpdateOrganizationPayload,
    args: { input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    extensions: { upstreamCalls: 1 },
    resolve: async (_root, { input }, { api }) => {
      const body: UpdateOrganizationBody = patchBody(input, "input");
      return { organization: await api.updateOrganization(body) };
    },
  }),
);
