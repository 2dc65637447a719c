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
      expect(at("request-size-limit")).toBeLessThan(at("request-id"));
      expect(at("request-id")).toBeLessThan(at("sse-single-connection"));
      expect(at("compiled-execution")).toBeLessThan(at("operation-spans"));
    } finally {
      await plain.close();
    }
  });

  it("refuses, at start-up, an order that breaks a stated guarantee, naming it", () => {
    const plugin = {};
    const entries = [
      { name: "request-id", plugin, after: { "size-limit": "a refused request has no ID" } },
      { name: "size-limit", plugin },
    ];
    expect(() => declaredPipeline(entries)).toThrow(PipelineOrderError);
    expect(() => declaredPipeline(entries)).toThrow(
      "pipeline: request-id must come after size-limit: a refused request has no ID",
    );
    // The same entries in the stated order, and with the one it must follow left out.
    const [requestId, sizeLimit] = entries as [PipelineEntry, PipelineEntry];
    expect(declaredPipeline([sizeLimit, requestId]).names).toEqual(["size-limit", "request-id"]);
    const unset = { name: "size-limit", plugin: undefined };
    expect(declaredPipeline([requestId, unset]).names).toEqual(["request-id"]);
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
