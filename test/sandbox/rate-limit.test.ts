import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { SandboxOptions } from "../../src/sandbox/server.ts";
import { manualClock } from "../support/clock.ts";
import { type Answer, call, expectError, sandboxPerTest } from "./http.ts";

const start = sandboxPerTest();

// Windows are aligned on multiples of their length since the epoch: the sandbox's clock starts
// a little after a minute's boundary (which every window length here divides), and moves only
// when a test moves it, so no test's requests can straddle two windows by chance.
const clock = manualClock();

function startInFreshWindow(options: SandboxOptions & { rateWindowSeconds: number }) {
  clock.advance(60_000 - (clock.now() % 60_000) + 100);
  return start({ ...options, now: clock.now });
}

function limits(answer: Answer) {
  return {
    limit: answer.headers.get("x-ratelimit-limit"),
    remaining: answer.headers.get("x-ratelimit-remaining"),
    reset: answer.headers.get("x-ratelimit-reset"),
  };
}

function currentReset(windowSeconds: number): string {
  return String((Math.floor(clock.now() / 1000 / windowSeconds) + 1) * windowSeconds);
}

describe("rate limiting", () => {
  it("puts the three X-RateLimit headers on successes and errors alike", async () => {
    const s = await startInFreshWindow({ rateLimit: 10, rateWindowSeconds: 60 });
    const reset = currentReset(60);
    const ok = await call(s, "/v1/organization");
    const notFound = await call(s, "/v1/agents/agt_nope");
    const invalid = await call(s, "/v1/conversations?limit=0");
    const deleted = await call(s, `/v1/properties/${SEED_IDS.acmeProperty}`, { method: "DELETE" });
    expect([ok, notFound, invalid, deleted].map(limits)).toEqual([
      { limit: "10", remaining: "9", reset },
      { limit: "10", remaining: "8", reset },
      { limit: "10", remaining: "7", reset },
      { limit: "10", remaining: "6", reset },
    ]);
    expect(ok.headers.get("retry-after")).toBeNull();
  });

  it("counts unauthenticated requests per remote address, with the headers on the 401", async () => {
    const s = await startInFreshWindow({ rateLimit: 2, rateWindowSeconds: 60 });
    const first = await call(s, "/v1/organization", { key: null });
    const second = await call(s, "/v1/organization", { key: "sk_test_wrong" });
    expectError(first, 401, "UNAUTHORIZED");
    expect([limits(first).remaining, limits(second).remaining]).toEqual(["1", "0"]);
    expectError(await call(s, "/v1/organization", { key: null }), 429, "RATE_LIMITED");
    expect((await call(s, "/v1/organization")).status).toBe(200); // Acme's own bucket
  });

  it("answers 429 RATE_LIMITED past the limit, for all of the organization's requests", async () => {
    const s = await startInFreshWindow({ rateLimit: 3, rateWindowSeconds: 60 });
    const reset = currentReset(60);
    for (let i = 0; i < 3; i++) expect((await call(s, "/v1/organization")).status).toBe(200);
    const limited = await call(s, "/v1/organization");
    const details = expectError(limited, 429, "RATE_LIMITED");
    expect(limits(limited)).toEqual({ limit: "3", remaining: "0", reset });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(details).toEqual({ limit: 3, reset: Number(reset), retryAfter });
    // Other operations and the read-only key share Acme's bucket; writes are not performed.
    expectError(await call(s, "/v1/agents"), 429, "RATE_LIMITED");
    expectError(await call(s, "/v1/agents", { key: DEMO_KEYS.acmeReadonly }), 429, "RATE_LIMITED");
    const write = await call(s, `/v1/properties/${SEED_IDS.acmeProperty}`, { method: "DELETE" });
    expectError(write, 429, "RATE_LIMITED");
    // Another organization is not affected.
    const globex = await call(s, "/v1/organization", { key: DEMO_KEYS.globex });
    expect(globex.status).toBe(200);
    expect(limits(globex)).toEqual({ limit: "3", remaining: "2", reset });
  });

  it("starts afresh when a new window begins", async () => {
    const s = await startInFreshWindow({ rateLimit: 1, rateWindowSeconds: 1 });
    const first = await call(s, "/v1/organization");
    expect(first.status).toBe(200);
    const limited = await call(s, "/v1/organization");
    expectError(limited, 429, "RATE_LIMITED");
    clock.advance(Number(limited.headers.get("x-ratelimit-reset")) * 1000 - clock.now());
    const again = await call(s, "/v1/organization");
    expect(again.status).toBe(200);
    expect(limits(again).remaining).toBe("0");
    expect(Number(limits(again).reset)).toBe(Number(limits(first).reset) + 1);
  });
});
