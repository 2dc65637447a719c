import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scriptPerTest } from "../support/scripts.ts";

const start = scriptPerTest("src/main.ts");
const PLANT = fileURLToPath(new URL("../support/plant-rejection.ts", import.meta.url));
const LINE = "an unhandled rejection, counted; the process goes on: Error: planted by the test";

describe("npm start, when a rejection goes unhandled", () => {
  it("logs and counts each one, and goes on serving", async () => {
    const gateway = start({ PORT: "0", LOG_LEVEL: "error", NODE_OPTIONS: `--import=${PLANT}` });
    const banner = await gateway.stdoutWith("other keys");
    const url = /GraphiQL at (\S+)/.exec(banner)?.[1] as string;
    expect(url).toBeDefined();
    for (const count of [1, 2]) {
      gateway.child.kill("SIGUSR2");
      const logged = await gateway.stdoutWith(new RegExp(`(${LINE}[^]*){${count}}`));
      expect(logged.split(LINE)).toHaveLength(count + 1);
    }
    expect(gateway.child.exitCode).toBeNull();
    const answer = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk_test_acme" },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    });
    expect(await answer.json()).toMatchObject({ data: { organization: { name: "Acme Health" } } });
    const metrics = await (await fetch(url.replace(/\/graphql$/, "/metrics"))).text();
    expect(metrics).toMatch(/^voicegraph_unhandled_rejections_total 2$/m);
    // The line says what was rejected, and nothing of where: no stack.
    expect(gateway.output().stdout).not.toContain("plant-rejection.ts");
  });
});
