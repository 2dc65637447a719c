import { z } from "zod";
import { invalidField, parseBodyShape } from "../body-validation.ts";
import { type Operation, type OperationContext, ok } from "../operation-context.ts";
import { requireJsonObject } from "../request-body.ts";
import { updateOrganizationShape } from "../request-shapes.ts";
import type { JsonObject } from "../vocabulary.ts";

const email = z.email();

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** IANA zone names only: Intl also accepts offsets such as "+01:00", which are not zones. */
function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z]/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The organization as the dialect returns it: with its timestamps, or the id and fields only. */
function organizationBody(ctx: OperationContext): JsonObject {
  const { createdAt, updatedAt, ...fields } = ctx.org.organization;
  return ctx.dialect.organizationTimestamps ? { ...fields, createdAt, updatedAt } : fields;
}

/** Operation 1. */
export const getOrganization: Operation = (ctx) => ok(organizationBody(ctx));

/** Operation 2: omitted fields are kept; an empty object changes nothing. */
export const updateOrganization: Operation = (ctx) => {
  const patch = parseBodyShape(updateOrganizationShape, requireJsonObject(ctx.body));
  if (patch.name !== undefined && patch.name.trim() === "")
    throw invalidField("name", "must not be empty");
  if (patch.name !== undefined && patch.name.length > 200) {
    throw invalidField("name", "must be at most 200 characters");
  }
  if (patch.email !== undefined && !email.safeParse(patch.email).success) {
    throw invalidField("email", "must be an email address");
  }
  if (patch.url !== undefined && !isHttpUrl(patch.url)) {
    throw invalidField("url", "must be an absolute http(s) URL");
  }
  if (patch.timezone !== undefined && !isIanaTimeZone(patch.timezone)) {
    throw invalidField("timezone", "must be an IANA time zone, e.g. Europe/Paris");
  }
  const changes = Object.entries(patch).filter(([, value]) => value !== undefined);
  if (changes.length > 0) {
    Object.assign(ctx.org.organization, Object.fromEntries(changes), {
      updatedAt: new Date(ctx.nowMs).toISOString(),
    });
  }
  return ok(organizationBody(ctx));
};
