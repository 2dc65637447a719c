import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Lower-case alphanumerics from a CSPRNG; 36^n possibilities, a tiny bias is irrelevant here. */
function randomAlphanumerics(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** An identifier created at run time: the resource's prefix and 16 random alphanumerics. */
export function newId(prefix: string): string {
  return `${prefix}${randomAlphanumerics(16)}`;
}

export function newRequestId(): string {
  return `req_${randomAlphanumerics(20)}`;
}

/**
 * The prefix of every ID the sandbox mints: the seed's (Identifier prefixes) and, for
 * organizations, phone numbers, tools and voice configs, its own choices (docs/upstream.md: "Silent spots of the seed").
 */
export const SANDBOX_ID_PREFIX = {
  agent: "agt_",
  campaign: "cmp_",
  contact: "cnt_",
  conversation: "cnv_",
  document: "doc_",
  organization: "org_",
  phoneNumber: "phn_",
  property: "prp_",
  tool: "tool_",
  voiceConfig: "vc_",
} as const;
