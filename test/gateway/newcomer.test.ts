import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { scriptPerTest } from "../support/scripts.ts";
import { closedPortUrl } from "../upstream/recording-upstream.ts";
import { ACME, startHarness } from "./harness.ts";

// Issue 23: the frictions of a newcomer's first hour, each proven over real HTTP or a real start.

const closing = closedAfterEachTest();
const start = scriptPerTest("src/main.ts", { LOG_LEVEL: "warn" });

async function exitOf(child: import("node:child_process").ChildProcess) {
  const [code] = (await once(child, "exit")) as [number | null];
  return code;
}

describe("errors that say what to do", () => {
  it("names MAX_BATCH_SIZE when a batch is refused", async () => {
    const harness = closing(await startHarness());
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify([{ query: "{ __typename }" }, { query: "{ __typename }" }]),
    });
    const body = (await response.json()) as { errors: Array<{ message: string }> };
    expect(response.status).toBe(400);
    expect(body.errors[0]?.message).toMatch(/set MAX_BATCH_SIZE/);
  });

  it("names the limit when a batch is too long", async () => {
    const harness = closing(await startHarness({ gateway: { maxBatchSize: 2 } }));
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify(Array(3).fill({ query: "{ __typename }" })),
    });
    const body = (await response.json()) as { errors: Array<{ message: string }> };
    expect(response.status).toBe(413);
    expect(body.errors[0]?.message).toMatch(/at most 2 operations \(MAX_BATCH_SIZE\)/);
  });

  it("stops on a busy port with one line naming PORT, and no stack trace", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = start({ PORT: String(port) });
      expect(await exitOf(run.child)).toBe(1);
      const { stdout, stderr } = run.output();
      expect(stderr.trim().split("\n")).toEqual([
        `voicegraph could not start: port ${port} on 127.0.0.1 is in use; set PORT to another port (PORT=0: any free port)`,
      ]);
      expect(`${stdout}${stderr}`).not.toMatch(/Internal error| {4}at /);
    } finally {
      taken.close();
    }
  });

  it("names UPSTREAM_URL when it has no scheme", async () => {
    const run = start({ UPSTREAM_URL: "127.0.0.1:59998" });
    expect(await exitOf(run.child)).toBe(1);
    expect(run.output().stderr.trim()).toBe(
      'UPSTREAM_URL must start with its scheme, http:// or https://, e.g. http://127.0.0.1:4010 (got "127.0.0.1:59998")',
    );
  });

  it("says once at start-up that the upstream cannot be reached, and starts all the same", async () => {
    const upstream = await closedPortUrl();
    const run = start({ UPSTREAM_URL: upstream, PORT: "0" });
    const banner = await run.stdoutWith(/GraphQL at (http:\S+)\/graphql/);
    const url = /GraphQL at (http:\S+)\/graphql/.exec(banner)?.[1] as string;
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, upstream: "unreachable" });
    for (
      let waited = 0;
      waited < 5_000 && !run.output().stderr.includes("not reachable");
      waited += 50
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const warnings = run
      .output()
      .stderr.split("\n")
      .filter((line) => line.includes("not reachable"));
    expect(warnings).toEqual([
      `voicegraph: the upstream ${upstream} is not reachable now; operations answer UPSTREAM_UNAVAILABLE until it is, and /readyz says so`,
    ]);
  });

  it("npm run sandbox hands SIGTERM to the process that serves", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const npm = spawn("npm", ["run", "--silent", "sandbox"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        SANDBOX_PORT: String(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    npm.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    npm.stderr?.resume();
    for (let waited = 0; waited < 10_000 && !stdout.includes("listening"); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stdout).toContain(`listening on http://127.0.0.1:${port}`);
    const exited = once(npm, "exit");
    npm.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const socket = connect(port, "127.0.0.1");
    const refused = await once(socket, "connect").then(
      () => "connected",
      (error: NodeJS.ErrnoException) => error.code,
    );
    socket.destroy();
    expect(refused).toBe("ECONNREFUSED");
  }, 20_000);
});

describe("pages a browser lands on", () => {
  it("answers GET / with a page that says where the endpoint is", async () => {
    const harness = closing(await startHarness());
    const response = await fetch(`${harness.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("POST /graphql");
    expect(html).toContain("GRAPHIQL=true");
  });

  it("answers a browser's GET /graphql with GraphiQL off with that page, not a bare 406", async () => {
    const harness = closing(await startHarness({ gateway: { graphiql: false } }));
    const response = await fetch(`${harness.url}/graphql`, {
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("GRAPHIQL=true");
    // A GET query is still a query.
    const query = await fetch(`${harness.url}/graphql?query=%7B__typename%7D`, {
      headers: { accept: "application/json" },
    });
    expect(await query.json()).toMatchObject({ data: { __typename: "Query" } });
  });
});

describe("one rule for HTTP statuses, whatever the client accepts", () => {
  const asJsonOnly = (harness: { url: string }, query: string) =>
    fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: ACME,
      },
      body: JSON.stringify({ query }),
    });

  it.each([
    [
      "a depth refusal",
      `{ agent(id: "agt_1") { conversations { nodes { agent { conversations { nodes { agent { conversations { nodes { agent { conversations { nodes { id } } } } } } } } } } } } }`,
      "DEPTH_LIMIT_EXCEEDED",
    ],
    [
      "an alias refusal",
      `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: organization { id }`).join(" ")} }`,
      "ALIAS_LIMIT_EXCEEDED",
    ],
  ])("answers %s with the status its error shows", async (_what, query, code) => {
    const harness = closing(await startHarness());
    const response = await asJsonOnly(harness, query);
    const body = (await response.json()) as {
      errors: Array<{ extensions: Record<string, unknown> }>;
    };
    expect(body.errors[0]?.extensions.code).toBe(code);
    expect(response.status).toBe(400);
    expect(body.errors[0]?.extensions.http).toEqual({ status: 400 });
  });

  it("answers a wrong key 200 with its field error carrying the upstream's 401, and no http.status", async () => {
    const harness = closing(await startHarness());
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk_wrong_key_123" },
      body: JSON.stringify({ query: "{ organization { id } }" }),
    });
    const body = (await response.json()) as {
      errors: Array<{ extensions: Record<string, unknown> }>;
    };
    expect(response.status).toBe(200);
    expect(body.errors[0]?.extensions).toMatchObject({
      code: "UNAUTHENTICATED",
      upstream: { status: 401 },
    });
    expect(body.errors[0]?.extensions.http).toBeUndefined();
  });
});
