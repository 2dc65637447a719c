import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { ALLOWED_DIFFERENCES } from "../support/matrix-differences.ts";
import {
  AGENT,
  type MatrixGateway,
  normalise,
  RUNS,
  type Run,
  runName,
  startMatrixGateway,
} from "../support/settings-matrix.ts";

// In the unit project, run once: the matrix varies fast path and compiled execution itself, so
// the gateway projects' three passes would only repeat it. Runs with a store are the fleet's.

type Answers = Record<string, unknown>;

/** The corpus, run the same way under every run; each item's normalised answers. */
async function corpus(run: Run, gateway: MatrixGateway): Promise<Answers> {
  const answers: Answers = {};
  const item = async (name: string, body: () => Promise<unknown>) => {
    answers[name] = normalise(await body());
  };
  await item("node", () => gateway.send("node", { id: AGENT }));
  await item("agent", () => gateway.send("agent", { id: AGENT }));
  await item("conversations", () => gateway.send("conversations"));
  await item("upstream NOT_FOUND", () => gateway.send("agent", { id: "agt_acme_unknown" }));
  await item("gateway BAD_USER_INPUT", () => gateway.send("tooMany"));
  await item("pagination", async () => {
    const pages: unknown[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const answer = await gateway.send("forwards", after === null ? {} : { after });
      const agents = (
        answer.body.data as
          | { agents?: { pageInfo: { hasNextPage: boolean; endCursor: string } } }
          | undefined
      )?.agents;
      pages.push({ status: answer.status, ids: agents ?? answer.body.errors });
      if (!agents?.pageInfo.hasNextPage) break;
      after = agents.pageInfo.endCursor;
    }
    let before: string | null = null;
    for (let page = 0; page < 20; page++) {
      const answer = await gateway.send("backwards", before === null ? {} : { before });
      const agents = (
        answer.body.data as
          | { agents?: { pageInfo: { hasPreviousPage: boolean; startCursor: string } } }
          | undefined
      )?.agents;
      pages.push({ status: answer.status, ids: agents ?? answer.body.errors });
      if (!agents?.pageInfo.hasPreviousPage) break;
      before = agents.pageInfo.startCursor;
    }
    // Cursors are opaque and per gateway: the pages' items and flags are what must agree.
    return JSON.parse(
      JSON.stringify(pages).replace(/"(endCursor|startCursor)":"[^"]*"/g, '"$1":"<cursor>"'),
    );
  });
  await item("mutation", async () => {
    const renamed = await gateway.send("rename", { id: AGENT, name: "Matrix reception" });
    const read = await gateway.send("node", { id: AGENT });
    const restored = await gateway.send("rename", { id: AGENT, name: ORIGINAL_NAME });
    return [renamed, read, restored];
  });
  if (run.federation === "on")
    await item("_entities", () => gateway.send("entities", { id: AGENT }));
  if (run.auth !== "passthrough")
    await item("logout", async () => [
      await gateway.logout(),
      (await gateway.send("node", { id: AGENT })).status,
    ]);
  return answers;
}

const allowed = (run: Run, item: string) =>
  ALLOWED_DIFFERENCES.some(
    (row) =>
      Object.entries(run).some(([name, value]) => row.setting === `${name}=${value}`) &&
      (row.item === item || row.item === "*"),
  );

/** The seeded agent's name, which the mutation item restores. */
const ORIGINAL_NAME = "Reception";

let sandbox: Sandbox;
let reference: Answers;
// A sandbox of its own per run: no run's write or leftover state can reach another's answers.
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(() => sandbox.close());

const [REFERENCE, ...OTHERS] = RUNS.filter((run) => run.store === "none");

describe("the settings matrix without a store", () => {
  it(`the reference run (${runName(REFERENCE as Run)}) answers every item`, async () => {
    const gateway = await startMatrixGateway(REFERENCE as Run, sandbox.url);
    try {
      reference = await corpus(REFERENCE as Run, gateway);
    } finally {
      await gateway.close();
    }
    // The reference itself must be right before others are compared with it.
    expect(reference.node).toMatchObject({
      status: 200,
      body: { data: { node: { id: AGENT, name: ORIGINAL_NAME } } },
    });
    expect(reference["upstream NOT_FOUND"]).toMatchObject({
      body: { errors: [{ extensions: { code: "NOT_FOUND" } }] },
    });
    expect(reference["gateway BAD_USER_INPUT"]).toMatchObject({
      body: { errors: [{ extensions: { code: "BAD_USER_INPUT" } }] },
    });
    expect(reference.mutation).toMatchObject([
      { status: 200 },
      { body: { data: { node: { name: "Matrix reception" } } } },
      { status: 200 },
    ]);
  });

  it.each(OTHERS.map((run) => [runName(run), run] as const))(
    "%s answers as the reference",
    async (_, run) => {
      const gateway = await startMatrixGateway(run, sandbox.url);
      let answers: Answers;
      try {
        answers = await corpus(run, gateway);
      } finally {
        await gateway.close();
      }
      for (const [item, answer] of Object.entries(answers)) {
        // A logout ends the session in session mode, whichever way its token rides; the
        // reference (passthrough) has no session to end, so it is checked for what it answers.
        if (item === "logout") {
          expect(answer).toEqual([204, 401]);
          continue;
        }
        if (allowed(run, item)) continue;
        // Items the reference cannot run (`_entities`, logout) are checked for what they answer.
        if (item === "_entities") {
          expect(answer).toMatchObject({
            status: 200,
            body: { data: { _entities: [{ id: AGENT, name: ORIGINAL_NAME }] } },
          });
          continue;
        }
        expect({ item, answer }).toEqual({ item, answer: reference[item] });
      }
    },
  );
});
