/** The seed's resource ID prefixes (Identifier prefixes): every resource ID starts with one. */
export const ID_PREFIX = {
  agent: "agt_",
  contact: "cnt_",
  conversation: "cnv_",
  campaign: "cmp_",
  property: "prp_",
  document: "doc_",
} as const;

/**
 * The longest ID the gateway sends upstream or carries in a cursor. The seed sets no bound; a
 * longer string cannot be a real ID (sending it would only earn a 404 or 431), so it is refused as
 * an argument, and not kept in a cursor.
 */
export const MAX_ID_LENGTH = 255;
