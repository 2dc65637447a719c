import { isJsonObject, type JsonObject } from "./json.ts";

/**
 * What the gateway cannot learn from an answer and so must be told (docs/upstream.md: "Silent spots of
 * the seed"): the name of operation 7's free-text parameter and the unit of `duration`.
 */
export interface UpstreamReading {
  /** Operation 7's free-text parameter; default "search". */
  searchParam: string;
  /** The unit of `duration` in conversations and the status view; default "seconds". */
  durationUnit: "seconds" | "milliseconds";
}

export const DEFAULT_READING: UpstreamReading = { searchParam: "search", durationUnit: "seconds" };

/** The id of a reference written either flat (`agentId: "agt_1"`) or nested (`agent: { id }`). */
function referenceId(raw: JsonObject, name: "agent" | "contact"): unknown {
  const flat = raw[`${name}Id`];
  if (flat !== undefined) return flat;
  const nested = raw[name];
  if (nested === null) return null;
  return isJsonObject(nested) ? nested.id : undefined;
}

/** Whole seconds, whichever unit the upstream counts in. */
function seconds(duration: unknown, reading: UpstreamReading): unknown {
  if (typeof duration !== "number" || reading.durationUnit === "seconds") return duration;
  return Math.round(duration / 1000);
}

/**
 * Where a read conversation keeps the object the upstream sent, for `raw`: a property of the
 * read object itself (a symbol, not enumerable, so no copy or serialisation carries it), which
 * lives and dies with it, rather than an entry of a module-level map.
 */
const ORIGINAL = Symbol("the upstream's own object");

/** The upstream's own object behind a conversation `readConversation` returned (itself otherwise). */
export function upstreamOriginal<T>(read: T): unknown {
  if (typeof read !== "object" || read === null) return read;
  return (read as { [ORIGINAL]?: unknown })[ORIGINAL] ?? read;
}

/**
 * One conversation (a list item, or operation 8's status view) in the one shape the schema reads:
 * `agentId`/`contactId` and a duration in seconds. Anything else is left as the upstream sent it,
 * and a value that is not an object is left for the schema's own checks. An object already in
 * that shape (flat IDs, seconds) is the read itself: no copy for the upstream that writes so.
 */
export function readConversation<T>(raw: T, reading: UpstreamReading): T {
  if (!isJsonObject(raw)) return raw;
  const agentId = referenceId(raw, "agent");
  const contactId = referenceId(raw, "contact");
  const duration = "duration" in raw ? seconds(raw.duration, reading) : undefined;
  const same =
    (agentId === undefined || raw.agentId === agentId) &&
    (contactId === undefined || raw.contactId === contactId) &&
    duration === raw.duration;
  if (same) return raw;
  const read: JsonObject = { ...raw };
  if (agentId !== undefined) read.agentId = agentId;
  if (contactId !== undefined) read.contactId = contactId;
  if ("duration" in raw) read.duration = duration;
  Object.defineProperty(read, ORIGINAL, { value: raw, enumerable: false });
  return read as T;
}

/**
 * A list answer with each of its `items` read by `readConversation`; the envelope untouched, and
 * the answer itself when no item needed reading.
 */
export function readConversationList<T>(raw: T, reading: UpstreamReading): T {
  if (!isJsonObject(raw) || !Array.isArray(raw.items)) return raw;
  const items = raw.items.map((item) => readConversation(item, reading));
  if (items.every((item, index) => item === (raw.items as unknown[])[index])) return raw;
  return { ...raw, items } as T;
}
