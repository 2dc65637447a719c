import { DIALECTS, type DialectName, isDialectName } from "./dialects.ts";
import type { SandboxOptions } from "./server.ts";

/** Every option with its default applied. */
export type ResolvedOptions = Required<SandboxOptions>;

export const DEFAULT_OPTIONS: ResolvedOptions = {
  rateLimit: 100_000,
  rateWindowSeconds: 60,
  latencyMs: 0,
  errorRate: 0,
  hangRate: 0,
  callDurationMs: 90_000,
  callIntervalMs: 20_000,
  cursorTtlMs: 15 * 60_000,
  campaignsMaxLimit: 100,
  random: Math.random,
  now: Date.now,
  dialect: "standard",
  extraOrganizations: 0,
};

function check(ok: boolean, message: string): void {
  if (!ok) throw new RangeError(`startSandbox: ${message}`);
}

/** Applies defaults and refuses nonsense early, rather than misbehaving later. */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const defined = Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  );
  const name = (defined.dialect ?? DEFAULT_OPTIONS.dialect) as DialectName;
  check(isDialectName(name), `dialect must be one of ${Object.keys(DIALECTS).join(", ")}`);
  // The dialect supplies its own defaults for the values the seed leaves open.
  const { rateLimit, rateWindowSeconds, campaignsMaxLimit } = DIALECTS[name];
  const dialectDefaults = { rateLimit, rateWindowSeconds, campaignsMaxLimit };
  const resolved: ResolvedOptions = { ...DEFAULT_OPTIONS, ...dialectDefaults, ...defined };
  const isInt = (n: number, min: number) => Number.isInteger(n) && n >= min;
  check(isInt(resolved.rateLimit, 1), "rateLimit must be an integer >= 1");
  check(isInt(resolved.rateWindowSeconds, 1), "rateWindowSeconds must be an integer >= 1");
  check(resolved.latencyMs >= 0, "latencyMs must be >= 0");
  check(resolved.errorRate >= 0 && resolved.errorRate <= 1, "errorRate must be from 0 to 1");
  check(resolved.hangRate >= 0 && resolved.hangRate <= 1, "hangRate must be from 0 to 1");
  check(resolved.callDurationMs >= 1, "callDurationMs must be >= 1");
  // A tiny interval would flood the store with calls; 10 ms is already far faster than useful.
  check(resolved.callIntervalMs >= 10, "callIntervalMs must be >= 10");
  check(
    isInt(resolved.extraOrganizations, 0) && resolved.extraOrganizations <= 99,
    "extraOrganizations must be an integer from 0 to 99",
  );
  check(resolved.cursorTtlMs >= 1, "cursorTtlMs must be >= 1");
  check(
    isInt(resolved.campaignsMaxLimit, 1) && resolved.campaignsMaxLimit <= 100,
    "campaignsMaxLimit must be an integer from 1 to 100",
  );
  return resolved;
}
