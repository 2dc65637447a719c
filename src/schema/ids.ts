import { badUserInput } from "../errors.ts";
import { ID_PREFIX, MAX_ID_LENGTH } from "../upstream/ids.ts";

/** GraphQL type of each node ID prefix: `node(id:)` dispatches on it. */
export const NODE_TYPE_BY_PREFIX = {
  [ID_PREFIX.agent]: "Agent",
  [ID_PREFIX.contact]: "Contact",
  [ID_PREFIX.conversation]: "Conversation",
  [ID_PREFIX.campaign]: "Campaign",
  [ID_PREFIX.property]: "PropertyDefinition",
  [ID_PREFIX.document]: "Document",
} as const;

export type NodeTypename = (typeof NODE_TYPE_BY_PREFIX)[keyof typeof NODE_TYPE_BY_PREFIX];
export type IdKind = keyof typeof ID_PREFIX;

export function typenameForId(id: string): NodeTypename | undefined {
  for (const [prefix, typename] of Object.entries(NODE_TYPE_BY_PREFIX)) {
    if (id.startsWith(prefix) && id.length > prefix.length) return typename;
  }
  return undefined;
}

/** An ID as quoted back in an error message: a long one is cut. */
export function quoteId(id: string): string {
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id);
}

/** Rejects, before any upstream call, an ID too long to be one. */
export function assertIdLength(id: string, argument = "id"): string {
  if (id.length > MAX_ID_LENGTH) {
    throw badUserInput(
      `\`${argument}\` is ${id.length} characters long; an ID has at most ${MAX_ID_LENGTH}.`,
      { argument },
    );
  }
  return id;
}

/**
 * Rejects, before any upstream call, an ID that cannot name a resource of this kind: the
 * upstream would only answer 404 after a round trip.
 */
export function assertId(kind: IdKind, id: string, argument = "id"): string {
  const prefix = ID_PREFIX[kind];
  if (!id.startsWith(prefix) || id.length === prefix.length) {
    throw badUserInput(
      `\`${argument}\` must be ${article(kind)} ${kind} ID starting with "${prefix}", got ${quoteId(id)}.`,
      { argument },
    );
  }
  return assertIdLength(id, argument);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}
