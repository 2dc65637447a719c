import { describe, expect, it } from "vitest";
import { useApiKeyGate } from "../../src/gateway/admission/use-api-key-gate.ts";
import { useCostLimit } from "../../src/gateway/admission/use-cost-limit.ts";
import { useVariableErrors } from "../../src/gateway/admission/use-variable-errors.ts";
import {
  declaredPipeline,
  type PipelineEntry,
  PipelineOrderError,
} from "../../src/gateway/assembly/pipeline.ts";
import { factFlow, MissingFactError } from "../../src/gateway/execution/operation-facts.ts";
import { createDocumentFacts } from "../../src/gateway/shared/document-facts.ts";
import { startHarness } from "./harness.ts";

/** Admission's stages that pass facts on, as the gateway makes them, in the order given. */
function admission(order: readonly string[]): PipelineEntry[] {
  const documents = createDocumentFacts();
  const made: Record<string, PipelineEntry> = {
    "variable-errors": {
      name: "variable-errors",
      lane: "judges",
      plugin: useVariableErrors(documents),
    },
    "cost-limit": {
      name: "cost-limit",
      lane: "judges",
      plugin: useCostLimit({ maxUpstreamCalls: 200, documents }),
    },
    "api-key-gate": { name: "api-key-gate", lane: "judges", plugin: useApiKeyGate(documents) },
  };
  return order.map((name) => made[name] as PipelineEntry);
}

describe("the gateway's declared pipeline", () => {
  it("applies its rules in one stated order, the conditional ones only when set", async () => {
    const plain = await startHarness();
    try {
      const names = plain.gateway.pipeline;
      expect(names[0]).toBe("fast-path");
      expect(names.at(-1)).toBe("http-status-in-errors");
      expect(names).not.toContain("answer-redaction");
      const at = (name: string) => names.indexOf(name);
      // The guarantees the pipeline states, as they stand in the running gateway.
      expect(at("request-id")).toBeLessThan(at("request-size-limit"));
      expect(at("request-id")).toBeLessThan(at("csrf-prevention"));
      expect(at("request-id")).toBeLessThan(at("sse-single-connection"));
      expect(at("compiled-execution")).toBeLessThan(at("operation-spans"));
    } finally {
      await plain.close();
    }
  });

  it("refuses, at start-up, an order that breaks a stated guarantee, naming it", () => {
    const plugin = {};
    const lane = { mirrors: "a test's entry" };
    const entries = [
      {
        name: "size-limit",
        plugin,
        lane,
        after: { "request-id": "a refusal names its request ID" },
      },
      { name: "request-id", plugin, lane },
    ];
    expect(() => declaredPipeline(entries)).toThrow(PipelineOrderError);
    expect(() => declaredPipeline(entries)).toThrow(
      "pipeline: size-limit must come after request-id: a refusal names its request ID",
    );
    // The same entries in the stated order, and with the one it must follow left out.
    const [sizeLimit, requestId] = entries as [PipelineEntry, PipelineEntry];
    expect(declaredPipeline([requestId, sizeLimit]).names).toEqual(["request-id", "size-limit"]);
    const unset = { name: "request-id", plugin: undefined, lane };
    expect(declaredPipeline([sizeLimit, unset]).names).toEqual(["size-limit"]);
  });

  it("passes each fact of an operation from the one stage that produces it to those that read it", async () => {
    const plain = await startHarness();
    try {
      const none: string[] = [];
      expect(plain.gateway.pipelineFacts).toEqual([
        {
          name: "prepared-lane (before the pipeline)",
          produces: ["laneResult"],
          reads: none,
          takes: none,
        },
        { name: "compiled-execution", produces: none, reads: none, takes: ["laneResult"] },
        { name: "variable-errors", produces: ["variables"], reads: none, takes: none },
        { name: "input-rules", produces: none, reads: ["variables"], takes: none },
        {
          name: "cost-limit",
          produces: ["estimatedUpstreamCalls"],
          reads: ["variables"],
          takes: none,
        },
        { name: "api-key-gate", produces: none, reads: ["estimatedUpstreamCalls"], takes: none },
        { name: "upstream-report", produces: none, reads: ["estimatedUpstreamCalls"], takes: none },
        { name: "live-queries", produces: none, reads: ["estimatedUpstreamCalls"], takes: none },
      ]);
    } finally {
      await plain.close();
    }
  });

  it("refuses, at start-up, the key gate above the stages whose estimate it reads", () => {
    const order = ["variable-errors", "cost-limit", "api-key-gate"];
    expect(declaredPipeline(admission(order)).names).toEqual(order);
    expect(() =>
      declaredPipeline(admission(["api-key-gate", "variable-errors", "cost-limit"])),
    ).toThrow(
      "pipeline: api-key-gate reads estimatedUpstreamCalls, which cost-limit produces only after it",
    );
    expect(() => declaredPipeline(admission(["cost-limit", "variable-errors"]))).toThrow(
      "pipeline: cost-limit reads variables, which variable-errors produces only after it",
    );
    expect(() => declaredPipeline(admission(["variable-errors", "api-key-gate"]))).toThrow(
      "pipeline: api-key-gate reads estimatedUpstreamCalls, which no stage produces",
    );
  });

  it("refuses a fact produced by two stages, and a read no stage answers at run time", () => {
    const producer = () => ({ onExecute() {}, facts: factFlow({ produces: ["variables"] }) });
    const lane = { mirrors: "a test's entry" };
    const twice = [
      { name: "a", plugin: producer(), lane },
      { name: "b", plugin: producer(), lane },
    ];
    expect(() => declaredPipeline(twice)).toThrow("pipeline: variables is produced by a and b");
    // Outside a checked pipeline, a missing fact is a defect: it throws, it never reads as zero.
    const reader = factFlow({ reads: ["estimatedUpstreamCalls"] });
    expect(() => reader.read({}, "estimatedUpstreamCalls")).toThrow(MissingFactError);
  });

  it("refuses a fact taken that nothing before it hands on, and takes a handed fact once", () => {
    const lane = { mirrors: "a test's entry" };
    const taker = { onExecute() {}, facts: factFlow({ takes: ["laneResult"] }) };
    expect(() => declaredPipeline([{ name: "compiled", plugin: taker, lane }])).toThrow(
      "pipeline: compiled reads laneResult, which no stage produces",
    );
    const before = { name: "the lane", facts: factFlow({ produces: ["laneResult"] }) };
    expect(declaredPipeline([{ name: "compiled", plugin: taker, lane }], before).names).toEqual([
      "compiled",
    ]);
    const context = {};
    const result = { data: null, errors: [] };
    factFlow({ produces: ["laneResult"] }).produce(context, "laneResult", result);
    expect(taker.facts.take(context, "laneResult")).toBe(result);
    expect(taker.facts.take(context, "laneResult")).toBeUndefined();
  });

  it("refuses a name given twice", () => {
    const plugin = {};
    const lane = { mirrors: "a test's entry" };
    expect(() =>
      declaredPipeline([
        { name: "a", plugin, lane },
        { name: "a", plugin, lane },
      ]),
    ).toThrow("pipeline: a name is repeated");
  });
});
