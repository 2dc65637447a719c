import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ gateway: { logging: "debug" }, upstream: { maxRetries: 0 } });
});
afterAll(() => harness.close());
afterEach(() => {
  vi.restoreAllMocks();
  harness.sandbox.clearFaults();
});

/** Every console line written at each level while `run` runs, as one string per call. */
async function linesDuring(run: () => Promise<unknown>) {
  const spies = {
    debug: vi.spyOn(console, "debug").mockImplementation(() => {}),
    warn: vi.spyOn(console, "warn").mockImplementation(() => {}),
    error: vi.spyOn(console, "error").mockImplementation(() => {}),
  };
  await run();
  const lines = (spy: (typeof spies)["debug"]) =>
    spy.mock.calls.map((args) => args.map((arg) => String(arg)).join(" "));
  return { debug: lines(spies.debug), warn: lines(spies.warn), error: lines(spies.error) };
}

describe("the gateway's log", () => {
  it("logs an upstream 4xx answer at debug, in one line, not as an error", async () => {
    const lines = await linesDuring(() => harness.graphql('{ agent(id: "agt_nope") { name } }'));
    expect(lines.error).toEqual([]);
    expect(lines.debug.some((line) => line.includes("upstream answered 404 NOT_FOUND"))).toBe(true);
  });

  it("logs an upstream failure as a one-line warning", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", status: 500 });
    const lines = await linesDuring(() => harness.graphql("{ organization { name } }"));
    expect(lines.error).toEqual([]);
    expect(lines.warn.filter((line) => line.includes("upstream failed with 500"))).toHaveLength(1);
  });

  it("still logs an unexpected error as an error", async () => {
    harness.sandbox.injectFault({
      path: "/v1/agents/agt_acme_reception",
      status: 200,
      body: { id: "agt_acme_reception" },
    });
    const lines = await linesDuring(() =>
      harness.graphql('{ agent(id: "agt_acme_reception") { primaryLanguage } }'),
    );
    expect(lines.error).toHaveLength(1);
    expect(lines.error.join("\n")).not.toContain("sk_test_acme");
  });
});
