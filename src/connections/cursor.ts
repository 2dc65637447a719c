import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { MAX_ID_LENGTH } from "../upstream/ids.ts";
import { isJsonObject } from "../upstream/json.ts";
import { cursorNotIssuedHere } from "./errors.ts";
import type { PageForm } from "./types.ts";

/**
 * Gateway cursors: `<payload>.<mac>`, both base64url. The payload is a compact JSON of the place;
 * the mac is an HMAC-SHA256 over the payload with the process's cursor key, so a client can
 * neither forge nor alter a cursor. Position forms carry an absolute item index and the ID of the
 * item there (to find it again when the list moved); the cursor form wraps the upstream cursor
 * of a page plus how many of its items the client has already seen (`skip`).
 */
export type CursorPlace =
  | { form: "page" | "offset"; position: number; id: string | null }
  | { form: "cursor"; upstreamCursor: string | null; skip: number };

export interface DecodedCursor {
  digest: string;
  place: CursorPlace;
}

/** The secret behind every cursor's mac; instances that share clients must share it. */
export type CursorKey = Buffer;

const VERSION = 2;
const DIGEST_LENGTH = 16;
const MAC_BYTES = 16;
/** No list this gateway serves reaches this far; a larger position is not one we issued. */
export const MAX_POSITION = 10_000_000;
/** Longest upstream cursor a gateway cursor carries (longer ones are not kept). */
export const MAX_UPSTREAM_CURSOR_LENGTH = 2048;
/** Longer input is refused before any decoding: the mac is never computed over megabytes. */
export const MAX_CURSOR_LENGTH = 4096;
const CURSOR_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The key from `CURSOR_SECRET`, or a random one that lives as long as the process. */
export function createCursorKey(secret?: string): CursorKey {
  return secret === undefined ? randomBytes(32) : Buffer.from(secret, "utf8");
}

/**
 * Short sha256 of the list's identity: its name, the form the cursor speaks and its filters
 * (null/undefined dropped, keys sorted, so an omitted filter equals an explicit null).
 */
export function listDigest(name: string, form: PageForm, filters: Record<string, unknown>): string {
  const identity = canonicalJson({ name, form, filters });
  return createHash("sha256").update(identity).digest("hex").slice(0, DIGEST_LENGTH);
}

export function encodeCursor(key: CursorKey, digest: string, place: CursorPlace): string {
  const compact =
    place.form === "cursor"
      ? { v: VERSION, f: place.form, d: digest, u: place.upstreamCursor, s: place.skip }
      : { v: VERSION, f: place.form, d: digest, p: place.position, i: place.id };
  const payload = Buffer.from(JSON.stringify(compact), "utf8").toString("base64url");
  return `${payload}.${mac(key, payload)}`;
}

/** Throws BAD_USER_INPUT for anything this gateway could not have issued with this key. */
export function decodeCursor(key: CursorKey, raw: string, argument: "after" | "before") {
  const compact = authenticated(key, raw);
  if (compact === undefined || compact.v !== VERSION || !isDigest(compact.d)) {
    throw cursorNotIssuedHere(argument);
  }
  const place = placeOf(compact);
  if (place === undefined) throw cursorNotIssuedHere(argument);
  return { digest: compact.d, place } satisfies DecodedCursor;
}

/** The payload's JSON object when the mac matches, else undefined; bounded work either way. */
function authenticated(key: CursorKey, raw: string): Record<string, unknown> | undefined {
  if (raw.length > MAX_CURSOR_LENGTH || !CURSOR_SHAPE.test(raw)) return undefined;
  const [payload = "", given = ""] = raw.split(".");
  const expected = Buffer.from(mac(key, payload), "utf8");
  const received = Buffer.from(given, "utf8");
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Every field checked, even under a valid mac: a leaked key must not reach a hang either. */
function placeOf(compact: Record<string, unknown>): CursorPlace | undefined {
  const { f: form, p: position, i: id, u: upstreamCursor, s: skip } = compact;
  if (form === "page" || form === "offset") {
    if (!isIndex(position, MAX_POSITION) || !isBoundedOrNull(id, MAX_ID_LENGTH)) return undefined;
    return { form, position, id };
  }
  if (
    form === "cursor" &&
    isIndex(skip, MAX_POSITION) &&
    isBoundedOrNull(upstreamCursor, MAX_UPSTREAM_CURSOR_LENGTH)
  ) {
    return { form, upstreamCursor, skip };
  }
  return undefined;
}

function mac(key: CursorKey, payload: string): string {
  return createHmac("sha256", key)
    .update(payload)
    .digest()
    .subarray(0, MAC_BYTES)
    .toString("base64url");
}

function isDigest(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{16}$/.test(value);
}

function isIndex(value: unknown, max: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= max;
}

function isBoundedOrNull(value: unknown, maxLength: number): value is string | null {
  return value === null || (typeof value === "string" && value.length <= maxLength);
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
