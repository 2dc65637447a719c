import { z } from "zod";

/** A bad environment variable: its message is the one line printed before the process stops. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * Validates `env` against a zod object schema whose keys are variable names. The first problem
 * becomes a ConfigError naming the variable, e.g. `PORT must be an integer from 0 to 65535 (got "x")`.
 */
export function parseEnv<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  // An empty variable means "unset", as shells make it easy to export one by accident.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? "environment");
  const got = present[name];
  // A secret's (or token's) value never reaches the logs, even a wrong one: only its length does.
  const shown = /SECRET|TOKEN/.test(name)
    ? `${got?.length} characters, not shown`
    : JSON.stringify(got);
  throw new ConfigError(
    `${name} ${issue?.message ?? "is invalid"}${got === undefined ? "" : ` (got ${shown})`}`,
  );
}

/** An integer variable within bounds, given as a string. */
export function intVar(min: number, max: number) {
  return z.coerce
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int({ error: `must be an integer from ${min} to ${max}` })
    .min(min, { error: `must be an integer from ${min} to ${max}` })
    .max(max, { error: `must be an integer from ${min} to ${max}` });
}

/** `true` or `false`, given as a string. */
export function boolVar() {
  return z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true");
}

/** A fraction from 0 to 1, given as a string. */
export function rateVar() {
  return z.coerce
    .number({ error: "must be a number from 0 to 1" })
    .min(0, { error: "must be a number from 0 to 1" })
    .max(1, { error: "must be a number from 0 to 1" });
}
