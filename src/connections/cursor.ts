import { createHash } from "node:crypto";
import { isJsonObject } from "../upstream/dto.ts";
import { cursorNotIssuedHere } from "./errors.ts";
import type { PageForm } from "./types.ts";

/**
 * Gateway cursors: opaque base64url of a compact JSON. Position forms carry an absolute item
 * index; the cursor form wraps the upstream cursor of a page plus how many of its items the
 * client has already seen (`skip`), so any edge, not only the last, can be resumed from.
 */
export type CursorPlace =
  | { form: "page" | "offset"; position: number }
  | { form: "cursor"; upstreamCursor: string | null; skip: number };

export interface DecodedCursor {
  digest: string;
  place: CursorPlace;
}

const VERSION = 1;
const DIGEST_LENGTH = 16;

/**
 * Short sha256 of the list's identity: its name, the form the cursor speaks and its filters
 * (null/undefined dropped, keys sorted, so an omitted filter equals an explicit null).
 */
export function listDigest(name: string, form: PageForm, filters: Record<string, unknown>): string {
  const identity = canonicalJson({ name, form, filters });
  return createHash("sha256").update(identity).digest("hex").slice(0, DIGEST_LENGTH);
}

export function encodeCursor(digest: string, place: CursorPlace): string {
  const compact =
    place.form === "cursor"
      ? { v: VERSION, f: place.form, d: digest, u: place.upstreamCursor, s: place.skip }
      : { v: VERSION, f: place.form, d: digest, p: place.position };
  return Buffer.from(JSON.stringify(compact), "utf8").toString("base64url");
}

/** Throws BAD_USER_INPUT for anything this gateway could not have issued. */
export function decodeCursor(raw: string, argument: "after" | "before"): DecodedCursor {
  const compact = parseCompact(raw);
  if (compact === undefined || compact.v !== VERSION || typeof compact.d !== "string") {
    throw cursorNotIssuedHere(argument);
  }
  const { f: form, d: digest } = compact;
  if ((form === "page" || form === "offset") && isIndex(compact.p)) {
    return { digest, place: { form, position: compact.p } };
  }
  const upstreamCursor = compact.u;
  if (
    form === "cursor" &&
    isIndex(compact.s) &&
    (upstreamCursor === null || typeof upstreamCursor === "string")
  ) {
    return { digest, place: { form, upstreamCursor, skip: compact.s } };
  }
  throw cursorNotIssuedHere(argument);
}

function parseCompact(raw: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isIndex(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** JSON with object keys sorted and null/undefined members dropped, at every depth. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (!isJsonObject(member)) return member;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort()) {
      const field = member[key];
      if (field !== undefined && field !== null) sorted[key] = field;
    }
    return sorted;
  });
}
