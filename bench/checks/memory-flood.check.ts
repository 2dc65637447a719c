import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ORGANIZATION, post, withQuery } from "../../test/gateway/apq-requests.ts";
import { ACME } from "../../test/gateway/harness.ts";
import { scriptPerTest } from "../../test/support/scripts.ts";

// Memory no caller without a key can pin, measured on the real entry point: every cache fed by
// request text is bounded in bytes, whatever a keyless flood registers. RSS moves with a busy
// machine's late collections: a bench check, not a test.

/** Resident set size of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb * 1024;
}

describe("the 1 MB flood, against a spawned gateway", () => {
  const start = scriptPerTest("src/main.ts");

  it("keeps RSS within a bound through 600 keyless APQ registrations of 1 MB documents", async () => {
    const gateway = start({ PORT: "0", LOG_LEVEL: "error" });
    const banner = await gateway.stdoutWith("other keys");
    const url = (/GraphQL at (\S+)\/graphql/.exec(banner) ??
      /GraphiQL at (\S+)\/graphql/.exec(banner))?.[1] as string;
    const pid = gateway.child.pid as number;
    // Warm up: the same kinds of requests, small, so the baseline has the code paths loaded.
    for (let i = 0; i < 20; i++) {
      await post(url, withQuery(`query W${i} { organization { name } }`), null);
    }
    const before = rssBytes(pid);
    const flood = 300;
    let refused = 0;
    const floodOnce = async (round: number) => {
      for (let i = 0; i < flood; i++) {
        // Half parse (padding in a comment: 401), half do not (a parse error): both caches fed.
        const padding = i % 2 === 0 ? `#${"x".repeat(1_000_000)}` : " a".repeat(500_000);
        const query = `query F${round}_${i} { organization { name } } ${padding}`;
        const answer = await post(url, withQuery(query), null);
        if (answer.body.data == null && answer.body.errors !== undefined) refused += 1;
      }
      // Idle a little: the flood's garbage is collected, what a cache holds is not.
      for (let i = 0; i < 10; i++) {
        await post(url, { query: ORGANIZATION }, ACME);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return rssBytes(pid);
    };
    const afterFirst = await floodOnce(1);
    const afterSecond = await floodOnce(2);
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    console.info(
      `1 MB flood: 2 × ${flood} keyless registrations, RSS ${mb(before)} MB -> ${mb(afterFirst)} MB -> ${mb(afterSecond)} MB`,
    );
    expect(refused).toBe(2 * flood);
    // Unbounded, the first 300 texts of 1 MB stayed (APQ store and parse caches): +795 MB measured.
    expect(mb(afterFirst - before)).toBeLessThan(200);
    // Bounded, a second flood finds the caches full of nothing it can grow: no further climb.
    // (Unbounded it climbs as much again; a busy machine's late collections add a few dozen MB.)
    expect(mb(afterSecond - afterFirst)).toBeLessThan(150);
  }, 180_000); // 600 requests of 1 MB: a minute on a busy machine, far more only if it hangs
});
