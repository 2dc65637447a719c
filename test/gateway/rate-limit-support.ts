import { onTestFinished } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Harness, startHarness } from "./harness.ts";

// What the rate-limit tests share: a sandbox with a day-long window, and reading its figures.

// A day-long window: the sandbox aligns windows on multiples of their length since the epoch,
// so every count in these tests falls in one window (unless a test runs across 00:00 UTC).
export const WINDOW_SECONDS = 86_400;

/** The sandbox's X-RateLimit-Reset for a day-long window: the next 00:00 UTC, in Unix seconds. */
export function windowReset(): number {
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.getTime() / 1000;
}

export function secondsUntil(reset: number): number {
  return Math.ceil(reset - Date.now() / 1000);
}

export const TWO_ROOT_FIELDS = `{
  agent(id: "${SEED_IDS.acmeAgent}") { name }
  document(id: "${SEED_IDS.acmeDocument}") { name }
}`;

/** A harness whose sandbox allows `rateLimit` requests a window; closed when the test finishes. */
export async function start(rateLimit: number): Promise<Harness> {
  const harness = await startHarness({ sandbox: { rateLimit, rateWindowSeconds: WINDOW_SECONDS } });
  onTestFinished(() => harness.close());
  return harness;
}

export function rateLimitHeaders(headers: Headers) {
  return {
    limit: headers.get("x-ratelimit-limit"),
    remaining: headers.get("x-ratelimit-remaining"),
    reset: headers.get("x-ratelimit-reset"),
  };
}
