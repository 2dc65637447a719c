import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { FLEET_STORE, type FleetStore, startFleetStore } from "../support/fleet-store.ts";
import {
  type Answers,
  checkReference,
  compareWithReference,
  corpus,
} from "../support/matrix-corpus.ts";
import { RUNS, type Run, runName, startMatrixGateway } from "../support/settings-matrix.ts";

// The settings matrix's runs on this pass's store (FLEET_STORE): one Redis server in the fleet
// project, a Redis Cluster in fleet-cluster. The runs without a store are npm test's
// (test/matrix/settings-matrix.test.ts); the reference runs here too, in process, to compare.

const STORE = FLEET_STORE === "cluster" ? "redis-cluster" : "redis";
const [REFERENCE] = RUNS;
const ON_THIS_STORE = RUNS.filter((run) => run.store === STORE);

let store: FleetStore;
let sandbox: Sandbox;
let reference: Answers;
// One store for the file; each run keeps its keys under a prefix of its own.
beforeAll(async () => {
  store = await startFleetStore();
});
afterAll(() => store.close());
// A sandbox of its own per run: no run's write or leftover state can reach another's answers.
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(() => sandbox.close());

async function answersOf(run: Run) {
  const fleet = { store, prefix: `vgmatrix${RUNS.indexOf(run)}:` };
  const gateway = await startMatrixGateway(
    run,
    sandbox.url,
    run.store === "none" ? undefined : fleet,
  );
  try {
    return await corpus(run, gateway);
  } finally {
    await gateway.close();
  }
}

describe(`the settings matrix on ${STORE}`, () => {
  it(`the reference run (${runName(REFERENCE as Run)}) answers every item`, async () => {
    reference = await answersOf(REFERENCE as Run);
    checkReference(reference);
  });

  it.each(ON_THIS_STORE.map((run) => [runName(run), run] as const))(
    "%s answers as the reference",
    async (_, run) => {
      compareWithReference(run, await answersOf(run), reference);
    },
  );
});
