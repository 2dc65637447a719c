import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { FLEET_STORE, type FleetStore, startFleetStore } from "../support/fleet-store.ts";
import {
  type Answers,
  checkReference,
  compareWithReference,
  corpus,
} from "../support/matrix-corpus.ts";
import {
  AGENT,
  APQ_QUERY,
  DOCUMENTS,
  type MatrixGateway,
  RUNS,
  type Run,
  runName,
  startMatrixGateway,
} from "../support/settings-matrix.ts";

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

const fleetOf = (run: Run) => ({ store, prefix: `vgmatrix${RUNS.indexOf(run)}:` });

async function answersOf(run: Run) {
  if (run.store === "none") {
    const gateway = await startMatrixGateway(run, sandbox.url);
    try {
      return await corpus(run, gateway);
    } finally {
      await gateway.close();
    }
  }
  // Two instances of one fleet: the corpus runs on the first, the second shares its store.
  const gateway = await startMatrixGateway(run, sandbox.url, fleetOf(run));
  const other = await startMatrixGateway(run, sandbox.url, fleetOf(run), gateway);
  try {
    const answers = await corpus(run, gateway, () => registeredOnEveryInstance(run, other));
    // A logout made on the first instance is refused on the other.
    const after = await other.post({ query: DOCUMENTS.node.text, variables: { id: AGENT } });
    expect(after.status).toBe(run.auth === "passthrough" ? 200 : 401);
    return answers;
  } finally {
    await other.close();
    await gateway.close();
  }
}

/** The corpus's APQ registration runs on another instance by its hash alone. */
async function registeredOnEveryInstance(run: Run, other: MatrixGateway) {
  const hash = createHash("sha256").update(APQ_QUERY).digest("hex");
  const byHash = await other.post({
    extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
  });
  expect(byHash.body).toMatchObject(
    run.documents === "trusted"
      ? { errors: [{ extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } }] }
      : { data: { organization: { name: expect.any(String) } } },
  );
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
