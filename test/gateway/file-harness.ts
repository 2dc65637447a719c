import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

type HarnessOptions = Parameters<typeof startHarness>[0];

/** A sandbox where no new live call starts during the tests: seeded pages, lists and stats stay put. */
export const NO_NEW_CALLS = { sandbox: { callIntervalMs: 3_600_000 } } satisfies HarnessOptions;

/**
 * The harness of the test file that imports this module (each test file has its own copy of it),
 * set up by one of the two functions below, called once at the file's top level.
 */
export let harness: Harness;

/** One harness for the whole file; each test starts without faults and with an empty log. */
export function oneHarnessPerFile(options?: HarnessOptions): void {
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterAll(() => harness.close());
  afterEach(() => {
    harness.sandbox.clearFaults();
    harness.takeUpstreamRequests();
  });
}

/** A freshly seeded harness for every test (for tests that write). */
export function oneHarnessPerTest(options?: HarnessOptions): void {
  beforeEach(async () => {
    harness = await startHarness(options);
  });
  afterEach(() => harness.close());
}
