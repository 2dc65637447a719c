import {
  ORGANIZATION_WRITABLE_FIELDS,
  type OrganizationDto,
  type UpdateOrganizationBody,
} from "../upstream/dto.ts";
import { UpstreamUnavailableError } from "../upstream/errors.ts";
import { builder } from "./builder.ts";
import { REFUSES_NULL } from "./ids.ts";
import { patchBody } from "./patch-body.ts";
import { readOnce } from "./read-once.ts";
import { rawField } from "./shared-fields.ts";
import { callsOf } from "./upstream-calls.ts";

/** What each writable organization field holds (the seed types them all as plain strings). */
const FIELD_DESCRIPTIONS: Record<(typeof ORGANIZATION_WRITABLE_FIELDS)[number], string> = {
  name: "The organization's name",
  description: "A free-text description of the organization",
  url: "The organization's website address",
  industry: "The industry the organization works in",
  country: "The organization's country",
  city: "The organization's city",
  telephone: "The organization's telephone number",
  email: "The organization's contact email address",
  timezone: "The organization's time zone, such as `Europe/Berlin`",
};

export const Organization = builder.objectRef<OrganizationDto>("Organization").implement({
  description:
    "The organization the API key acts for. A node keyed by the upstream's own ID, so client caches update it in place; `node(id:)` cannot fetch it (the seed gives its ID no prefix).",
  interfaces: [builder.nodeInterfaceRef()],
  // Only ever returned as itself, never through `node`: no prefix to dispatch on.
  isTypeOf: () => true,
  fields: (t) => ({
    id: t.id({
      description: "The upstream's own ID of the organization.",
      resolve: (organization) => {
        if (typeof organization.id === "string" && organization.id !== "") return organization.id;
        throw new UpstreamUnavailableError(
          "INVALID_RESPONSE",
          "The upstream's organization has no `id`: it cannot be a node of client caches",
        );
      },
    }),
    ...Object.fromEntries(
      ORGANIZATION_WRITABLE_FIELDS.map((field) => [
        field,
        t.string({
          nullable: true,
          description: `${FIELD_DESCRIPTIONS[field]}; null when the upstream does not send it as a string.`,
          resolve: (organization) => stringOrNull(organization[field]),
        }),
      ]),
    ),
    raw: rawField(
      t,
      "The upstream's organization object as received, fields beyond the nine included.",
      (organization) => organization,
    ),
  }),
});

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

const UpdateOrganizationInput = builder.inputType("UpdateOrganizationInput", {
  description: "Only the fields given are sent; omitted fields keep their value.",
  extensions: REFUSES_NULL,
  fields: (t) =>
    Object.fromEntries(
      ORGANIZATION_WRITABLE_FIELDS.map((field) => [
        field,
        t.string({ description: `${FIELD_DESCRIPTIONS[field]}.` }),
      ]),
    ) as {
      [K in (typeof ORGANIZATION_WRITABLE_FIELDS)[number]]: ReturnType<typeof t.string>;
    },
});

const UpdateOrganizationPayload = builder
  .objectRef<{ organization: OrganizationDto }>("UpdateOrganizationPayload")
  .implement({
    description: "The result of `updateOrganization`.",
    fields: (t) => ({
      organization: t.expose("organization", {
        type: Organization,
        description: "The organization as the upstream answered the update.",
        // Read from the update's answer: an organization has no read by ID to load.
        extensions: { upstreamCalls: 0 },
      }),
    }),
  });

builder.queryField("organization", (t) =>
  t.field({
    type: Organization,
    nullable: true,
    description: "The organization the API key acts for (GET /v1/organization).",
    extensions: callsOf("getOrganization"),
    resolve: (_root, _args, context) =>
      readOnce(context, "organization", () => context.api.getOrganization()),
  }),
);

builder.mutationField("updateOrganization", (t) =>
  t.field({
    type: UpdateOrganizationPayload,
    description:
      "Sends exactly the fields given (PATCH /v1/organization); an explicit null is refused.",
    args: { input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    extensions: callsOf("updateOrganization"),
    resolve: async (_root, { input }, { api }) => {
      const body: UpdateOrganizationBody = patchBody(input, "input");
      return { organization: await api.updateOrganization(body) };
    },
  }),
);
