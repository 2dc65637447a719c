import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptPerTest } from "../support/scripts.ts";

// docs/clients.md's live-query examples are the files under docs/clients/, shown whole on the
// page: each runs here as a reader would run it, in Node, against one real `npm start`.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const KEY = "Bearer sk_test_acme";
const AGENT = "agt_acme_reception";
const EXAMPLES = ["live-urql.ts", "live-apollo.ts", "live-sse.ts", "live-ws.ts"] as const;

let gateway: ChildProcess;
let url: string;
beforeAll(async () => {
  gateway = spawn(process.execPath, ["src/main.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", PORT: "0", LOG_LEVEL: "error" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let banner = "";
  gateway.stdout?.on("data", (chunk) => {
    banner += chunk;
  });
  const started = Date.now();
  while (!banner.includes("other keys") && Date.now() - started < 25_000) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  url = /GraphiQL at (\S+)/.exec(banner)?.[1] ?? "";
  expect(url, banner).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
});
afterAll(async () => {
  if (gateway.exitCode !== null) return;
  const exited = once(gateway, "exit");
  gateway.kill("SIGTERM");
  await exited;
});

const examples = Object.fromEntries(
  EXAMPLES.map((file) => [file, scriptPerTest(`docs/clients/${file}`)]),
) as Record<(typeof EXAMPLES)[number], ReturnType<typeof scriptPerTest>>;

async function rename(name: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: KEY },
    body: JSON.stringify({
      query: `mutation Rename($id: ID!, $name: String!) {
        updateAgent(id: $id, input: { name: $name }) { agent { id name } }
      }`,
      variables: { id: AGENT, name },
    }),
  });
  expect(await response.json()).toMatchObject({ data: { updateAgent: { agent: { name } } } });
}

/** The agent names the example has drawn so far, one per result line. */
function namesDrawn(stdout: string): unknown[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => (JSON.parse(line) as { data?: { agent?: { name?: string } } }).data?.agent?.name)
    .filter((name) => name !== undefined);
}

describe("docs/clients.md's live-query examples against npm start", () => {
  it("shows every file of docs/clients/ whole, as it is", () => {
    const page = readFileSync(new URL("../../docs/clients.md", import.meta.url), "utf8");
    const shown = new Map(
      [
        ...page.matchAll(
          /\[`docs\/clients\/([\w-]+\.ts)`\]\(clients\/\1\)[^\n]*\n\n```ts\n([\s\S]*?)```/g,
        ),
      ].map(([, file, code]) => [file, code]),
    );
    const files = readdirSync(new URL("../../docs/clients/", import.meta.url));
    expect([...shown.keys()].sort()).toEqual(files.sort());
    for (const file of files) {
      const text = readFileSync(new URL(`../../docs/clients/${file}`, import.meta.url), "utf8");
      expect(shown.get(file), file).toBe(text);
    }
  });

  it("opens GraphiQL with the live calls list", async () => {
    const page = await fetch(url, { headers: { accept: "text/html" } });
    expect(await page.text()).toContain("query LiveCalls @live");
  });

  it.each(EXAMPLES)(
    "%s draws the agent, then its new name once renamed through the gateway",
    async (file) => {
      const example = examples[file]({ GRAPHQL_URL: url, AUTHORIZATION: KEY });
      const first = namesDrawn(await example.stdoutWith(/"agent":\{/));
      expect(first, example.output().stderr).toHaveLength(1);
      const renamed = `Desk (${file})`;
      expect(first[0]).not.toBe(renamed);
      await rename(renamed);
      const drawn = namesDrawn(await example.stdoutWith(`"name":"${renamed}"`));
      expect(drawn, example.output().stderr).toEqual([first[0], renamed]);
    },
  );
});
