/**
 * The only differences allowed between a settings-matrix run and the reference run
 * (docs/settings-matrix.md shows this same table; test/matrix/settings-matrix-doc.test.ts
 * compares them). A run's item may differ from the reference only as a row here says.
 */
export interface AllowedDifference {
  /** "setting=value", as the matrix names it. */
  setting: string;
  /** The corpus item, or "*" for every item. */
  item: string;
  differs: string;
  why: string;
}

export const ALLOWED_DIFFERENCES: readonly AllowedDifference[] = [
  {
    setting: "auth=session-header",
    item: "logout",
    differs: "logout runs, and the token is refused UNAUTHENTICATED afterwards",
    why: "passthrough has no session to end",
  },
  {
    setting: "auth=session-cookie",
    item: "logout",
    differs: "logout runs, and the cookie is refused UNAUTHENTICATED afterwards",
    why: "passthrough has no session to end",
  },
];

/**
 * Temporary: matrix items that fail because of breaks other engineers are fixing in parallel.
 * The integrator removes each entry once its fix merges; the assertion stays.
 */
export const KNOWN_BREAKS_PENDING_MERGE: ReadonlyArray<{
  setting: string;
  item: string;
  break: string;
}> = [
  ...["auth=session-header", "auth=session-cookie"].map((setting) => ({
    setting,
    item: "pagination",
    break: "session-mode redaction corrupts the gateway's own `agents` cursors",
  })),
  // Not one of the breaks being fixed: found by this matrix, unowned (see the matrix's report).
  {
    setting: "auth=session-header",
    item: "logout",
    break: "NEW: POST /graphql/logout with Authorization and no SESSION_COOKIE answers 404",
  },
  ...["upstream NOT_FOUND", "mutation", "logout"].map((item) => ({
    setting: "auth=session-cookie",
    item,
    break:
      "NEW: an APQ registration made over the session cookie is not kept; hash-only gets PERSISTED_QUERY_NOT_FOUND",
  })),
];
