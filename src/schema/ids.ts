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

/**
 * What an ID argument or input field must hold, declared on it in the schema (`idRule`) and
 * checked for the whole operation before it runs (gateway/admission/use-input-rules.ts): one
 * kind's ID, any node's ID, or, undeclared, any ID no longer than MAX_ID_LENGTH.
 */
export type IdRule = IdKind | "node" | "any";

/** The extension naming an ID argument's rule: `t.arg.id({ extensions: idRule("agent") })`. */
export function idRule(rule: IdRule): { idRule: IdRule } {
  return { idRule: rule };
}

/**
 * The extension of an input type whose fields may be omitted but never `null`: its fields are
 * sent as given, and the seed types them as non-null, so a `null` has no meaning upstream.
 */
export const REFUSES_NULL = { refusesNull: true } as const;

/** Why `id` cannot be an ID under `rule`, as told to the client naming `argument`; else undefined. */
export function idProblem(rule: IdRule, id: string, argument: string): string | undefined {
  if (rule !== "any" && rule !== "node") {
    const prefix = ID_PREFIX[rule];
    if (!id.startsWith(prefix) || id.length === prefix.length) {
      return `\`${argument}\` must be ${article(rule)} ${rule} ID starting with "${prefix}", got ${quoteId(id)}.`;
    }
  }
  if (id.length > MAX_ID_LENGTH) {
    return `\`${argument}\` is ${id.length} characters long; an ID has at most ${MAX_ID_LENGTH}.`;
  }
  if (rule === "node" && typenameForId(id) === undefined) {
    return `${quoteId(id)} is not a node ID: it must start with one of ${Object.values(ID_PREFIX).join(", ")}.`;
  }
  return undefined;
}

/** Why an explicit `null` at `argument` is refused. */
export function nullProblem(argument: string): string {
  return `\`${argument}\` cannot be null; omit it to leave it unchanged.`;
}

/** Rejects an ID too long to be one (admission has refused it already; a resolver's guard). */
export function assertIdLength(id: string, argument = "id"): string {
  const problem = idProblem("any", id, argument);
  if (problem) throw badUserInput(problem, { argument });
  return id;
}

/**
 * Rejects an ID that cannot name a resource of this kind. Admission refuses such an ID before
 * the operation runs; the resolver keeps the guard for the type it narrows to.
 */
export function assertId(kind: IdKind, id: string, argument = "id"): string {
  const problem = idProblem(kind, id, argument);
  if (problem) throw badUserInput(problem, { argument });
  return id;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}
