import { afterEach, beforeEach, describe, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import {
  type Answers,
  checkReference,
  compareWithReference,
  corpus,
} from "../support/matrix-corpus.ts";
import { RUNS, type Run, runName, startMatrixGateway } from "../support/settings-matrix.ts";

// In the unit project, run once: the matrix varies fast path and compiled execution itself, so
// the gateway projects' three passes would only repeat it. Runs with a store are the fleet
// suite's (test/fleet/settings-matrix.test.ts).

let sandbox: Sandbox;
let reference: Answers;
// A sandbox of its own per run: no run's write or leftover state can reach another's answers.
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(() => sandbox.close());

const [REFERENCE, ...OTHERS] = RUNS.filter((run) => run.store === "none");

async function answersOf(run: Run) {
  const gateway = await startMatrixGateway(run, sandbox.url);
  try {
    return await corpus(run, gateway);
  } finally {
    await gateway.close();
  }
}

describe("the settings matrix without a store", () => {
  it(`the reference run (${runName(REFERENCE as Run)}) answers every item`, async () => {
    reference = await answersOf(REFERENCE as Run);
    checkReference(reference);
  });

  it.each(OTHERS.map((run) => [runName(run), run] as const))(
    "%s answers as the reference",
    async (_, run) => {
      compareWithReference(run, await answersOf(run), reference);
    },
  );
});
