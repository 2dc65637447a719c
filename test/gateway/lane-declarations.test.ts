import type { ExecutionArgs } from "graphql";
import type { Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { gatewayError } from "../../src/errors.ts";
import { refuseBeforeRunning } from "../../src/gateway/admission/refuse-before-running.ts";
import type { PipelineEntry } from "../../src/gateway/assembly/pipeline.ts";
import type { GatewayContext } from "../../src/gateway/execution/context.ts";
import { requestLevel } from "../../src/gateway/shared/http-status.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

// The prepared lane answers a warm query without yoga's request machinery: it keeps a rule's
// promise only where the rule says how (pipeline.ts, LaneTreatment). A rule written the plain
// yoga way, an `onExecute` that refuses by a header, is the shape that once answered 403 cold
// and 200 from the lane once warm: it must now stop start-up or be held on every request.

const BLOCKED = "x-blocked-tenant";
const QUERY = "{ organization { name } }";

function refusal(args: ExecutionArgs) {
  const request = (args.contextValue as GatewayContext & { request?: Request }).request;
  if (request?.headers.get(BLOCKED) !== "yes") return undefined;
  return { errors: [requestLevel(gatewayError("FORBIDDEN", "This tenant is blocked."))] };
}

/** The review's plugin: yoga's ordinary shape, with no judge the lane could run. */
const plainRefusal = (): Plugin => ({
  onExecute({ args, setResultAndStopExecution }) {
    const refused = refusal(args);
    if (refused) setResultAndStopExecution(refused);
  },
});

async function post(harness: Harness, blocked: boolean) {
  const response = await fetch(`${harness.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      authorization: ACME,
      ...(blocked ? { [BLOCKED]: "yes" } : {}),
    },
    body: JSON.stringify({ query: QUERY }),
  });
  const body = (await response.json()) as { errors?: { extensions: { code: string } }[] };
  return { status: response.status, code: body.errors?.[0]?.extensions.code };
}

async function laneAnswers(harness: Harness): Promise<number> {
  const metric = await harness.gateway.metrics.preparedAnswers.get();
  return metric.values[0]?.value ?? 0;
}

describe("how the prepared lane treats each rule, by declaration", () => {
  const closing = closedAfterEachTest();
  const start = (rules: PipelineEntry[]) =>
    startHarness({
      gateway: { compileAfter: 1, rules },
      listen: { fastPath: true },
    }).then(closing);

  it("refuses at start-up a rule with hooks and no declaration", async () => {
    const undeclared = { name: "blocked-tenants", plugin: plainRefusal() } as PipelineEntry;
    await expect(start([undeclared])).rejects.toThrow(
      "pipeline: blocked-tenants has hooks and declares no lane treatment",
    );
  });

  it("refuses at start-up a rule declared to judge that has no judge", async () => {
    await expect(
      start([{ name: "blocked-tenants", lane: "judges", plugin: plainRefusal() }]),
    ).rejects.toThrow("pipeline: blocked-tenants is declared to judge and has no judge");
  });

  it("refuses at start-up a judge declared as anything but a judge", async () => {
    await expect(
      start([
        {
          name: "blocked-tenants",
          lane: { mirrors: "claimed, not true" },
          plugin: refuseBeforeRunning(refusal),
        },
      ]),
    ).rejects.toThrow(
      'pipeline: blocked-tenants has a judge the lane would not run: declare it "judges"',
    );
  });

  it("holds a declared judge on every request, cold and warm, while the lane answers the rest", async () => {
    const harness = await start([
      { name: "blocked-tenants", lane: "judges", plugin: refuseBeforeRunning(refusal) },
    ]);
    expect(await post(harness, true)).toEqual({ status: 403, code: "FORBIDDEN" });
    // Warm: the text was validated and compiled, and the lane now answers it.
    for (let run = 0; run < 3; run += 1)
      expect(await post(harness, false)).toEqual({ status: 200 });
    const before = await laneAnswers(harness);
    expect(before).toBeGreaterThan(0);
    for (let run = 0; run < 5; run += 1) {
      expect(await post(harness, true)).toEqual({ status: 403, code: "FORBIDDEN" });
    }
    expect(await laneAnswers(harness)).toBe(before);
  });

  it("sends every request to yoga while a rule that steps aside is present", async () => {
    const harness = await start([
      {
        name: "blocked-tenants",
        lane: { stepsAside: "it reads what only yoga's path keeps" },
        plugin: plainRefusal(),
      },
    ]);
    for (let run = 0; run < 3; run += 1)
      expect(await post(harness, false)).toEqual({ status: 200 });
    for (let run = 0; run < 3; run += 1) {
      expect(await post(harness, true)).toEqual({ status: 403, code: "FORBIDDEN" });
    }
    expect(await laneAnswers(harness)).toBe(0);
  });
});
