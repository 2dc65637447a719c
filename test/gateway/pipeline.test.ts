import { describe, expect, it } from "vitest";
import {
  declaredPipeline,
  type PipelineEntry,
  PipelineOrderError,
} from "../../src/gateway/pipeline.ts";
import { startHarness } from "./harness.ts";

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
    const entries = [
      { name: "size-limit", plugin, after: { "request-id": "a refusal names its request ID" } },
      { name: "request-id", plugin },
    ];
    expect(() => declaredPipeline(entries)).toThrow(PipelineOrderError);
    expect(() => declaredPipeline(entries)).toThrow(
      "pipeline: size-limit must come after request-id: a refusal names its request ID",
    );
    // The same entries in the stated order, and with the one it must follow left out.
    const [sizeLimit, requestId] = entries as [PipelineEntry, PipelineEntry];
    expect(declaredPipeline([requestId, sizeLimit]).names).toEqual(["request-id", "size-limit"]);
    const unset = { name: "request-id", plugin: undefined };
    expect(declaredPipeline([sizeLimit, unset]).names).toEqual(["size-limit"]);
  });

  it("refuses a name given twice", () => {
    const plugin = {};
    expect(() =>
      declaredPipeline([
        { name: "a", plugin },
        { name: "a", plugin },
      ]),
    ).toThrow("pipeline: a name is repeated");
  });
});
