/**
 * A DataLoader batch function over a REST API without batch reads: one call per distinct key,
 * all in parallel, in key order, with the Error in place of a key whose call failed (so one
 * missing resource fails only its own field).
 */
export function loadEach<V>(keys: readonly string[], load: (key: string) => Promise<V>) {
  return Promise.all(
    keys.map((key) =>
      load(key).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      ),
    ),
  );
}

/** The value if it is one of the enum's values, else null: an unknown upstream value is not an error. */
export function enumOrNull<const T extends string>(values: readonly T[], value: unknown): T | null {
  return typeof value === "string" && (values as readonly string[]).includes(value)
    ? (value as T)
    : null;
}
