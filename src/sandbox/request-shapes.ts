/**
 * The bodies of the organization and phone-number writes, as the sandbox validates them (the
 * agent bodies are in agent-input.ts): one source for the validation and the OpenAPI document.
 * Wrong types, missing and unknown fields are 400; rules on the values are checked after.
 */
import { z } from "zod";
import { SANDBOX_ID_PREFIX } from "./ids.ts";

/** Operation 2: the organization's nine writable fields, each optional, nothing else allowed. */
export const updateOrganizationShape = z
  .strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    url: z.string().optional(),
    industry: z.string().optional(),
    country: z.string().optional(),
    city: z.string().optional(),
    telephone: z.string().optional(),
    email: z.string().optional(),
    timezone: z.string().optional(),
  })
  .describe("Every field is optional; unknown fields are rejected.");

/** The organization's writable fields (seed: Organization), as operation 2 accepts them. */
export const ORGANIZATION_FIELDS = updateOrganizationShape.keyof().options;
export type OrganizationField = (typeof ORGANIZATION_FIELDS)[number];

/** One schema per writable organization field: `{ name: field, ..., timezone: field }`. */
export function organizationFields<T extends z.ZodType>(field: () => T) {
  const entries = ORGANIZATION_FIELDS.map((name) => [name, field()] as const);
  return Object.fromEntries(entries) as Record<OrganizationField, T>;
}

/** Operation 6. */
export const assignPhoneNumberShape = z
  .strictObject({
    phoneNumberId: z
      .string()
      .describe(`Phone number identifier (\`${SANDBOX_ID_PREFIX.phoneNumber}\` prefix).`),
    agentId: z.string().describe(`Agent identifier (\`${SANDBOX_ID_PREFIX.agent}\` prefix).`),
  })
  .describe("Both identifiers are required; unknown fields are rejected.");
