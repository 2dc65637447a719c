/** The seed's resource ID prefixes (Identifier prefixes): every resource ID starts with one. */
export const ID_PREFIX = {
  agent: "agt_",
  contact: "cnt_",
  conversation: "cnv_",
  campaign: "cmp_",
  property: "prp_",
  document: "doc_",
} as const;
