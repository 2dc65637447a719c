import type { JsonObject } from "../upstream/json.ts";
import type { builder } from "./builder.ts";

type Types = typeof builder.$inferSchemaTypes;
type FieldBuilder<Parent> = PothosSchemaTypes.ObjectFieldBuilder<Types, Parent>;

/**
 * `raw`: the upstream's object as received, with the fields the schema lacks, so a client reads
 * what another upstream sends before the schema knows it. Every resource and payload has one.
 */
export function rawField<Parent>(
  t: FieldBuilder<Parent>,
  description: string,
  resolve: (parent: Parent) => JsonObject,
) {
  return t.field({ type: "JSONObject", description, resolve });
}

/** The upstream's object of this resource, as `raw` describes it. */
export const rawResource = (noun: string) =>
  `The upstream's ${noun} as received, fields the schema lacks included.`;

/** A mutation's `raw`: the upstream's answer, `{}` when it had no body. */
export const RAW_ANSWER = "The upstream's answer; `{}` when it had no body.";

interface CallTiming {
  duration?: number | null;
  startedAt?: string | null;
  endedAt?: string | null;
}

/**
 * A call's timing, the same three fields on a conversation and on its status updates, so a
 * client cache reads one meaning for each (contract: the subscription payload).
 */
export function callTimingFields<Parent extends CallTiming>(t: FieldBuilder<Parent>) {
  // Explicit resolvers: Pothos's expose cannot check a field of a generic parent.
  return {
    startedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the call started (ISO 8601); null when the upstream omits it.",
      resolve: (parent) => parent.startedAt ?? null,
    }),
    endedAt: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "When the call ended (ISO 8601); null while it goes on or when the upstream omits it.",
      resolve: (parent) => parent.endedAt ?? null,
    }),
    duration: t.int({
      nullable: true,
      description:
        "How long the call has lasted, in seconds (the upstream does not state the unit); null when omitted.",
      resolve: (parent) => parent.duration ?? null,
    }),
  };
}

/** Keys of `Parent` whose values are of type `T` (or missing). */
type KeysOf<Parent, T> = {
  [K in keyof Parent]-?: NonNullable<Parent[K]> extends T ? K : never;
}[keyof Parent] &
  string;

/**
 * Fields the upstream's answer may leave out (the seed shows no body for most resources, and
 * another upstream may send less): nullable, shown as received, and described as such — the one
 * statement of that rule. `what` is the field's meaning, e.g. "The campaign's name".
 */
export function carriedFields<Parent extends object>(t: FieldBuilder<Parent>) {
  const description = (what: string) =>
    `${what}; null when the upstream's answer does not carry it.`;
  // The cast: Pothos cannot check a field of a generic parent; KeysOf already did.
  const shown = (name: keyof Parent) => (parent: Parent) => (parent[name] ?? null) as never;
  return {
    string: (name: KeysOf<Parent, string>, what: string) =>
      t.string({ nullable: true, description: description(what), resolve: shown(name) }),
    int: (name: KeysOf<Parent, number>, what: string) =>
      t.int({ nullable: true, description: description(what), resolve: shown(name) }),
    dateTime: (name: KeysOf<Parent, string>, what: string) =>
      t.field({
        type: "DateTime",
        nullable: true,
        description: description(what),
        resolve: shown(name),
      }),
  };
}
