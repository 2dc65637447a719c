import type { GatewayParts } from "../assembly/gateway-parts.ts";
import type { PipelineEntry } from "../assembly/pipeline.ts";
import { useNoIntrospection, useReadOnlySessions } from "../session/session-mode.ts";
import { useAnswerRedaction } from "./use-answer-redaction.ts";
import { useApiKeyGate } from "./use-api-key-gate.ts";
import { useCostLimit } from "./use-cost-limit.ts";
import { useInputRules } from "./use-input-rules.ts";
import { useKeyBound } from "./use-key-bound.ts";
import { useOperationDeadline } from "./use-operation-deadline.ts";
import { useOperationLimits } from "./use-operation-limits.ts";
import { useVariableErrors } from "./use-variable-errors.ts";
import { useWellFormedInput } from "./use-well-formed-input.ts";

/**
 * An operation judged before anything runs (admission/): its shape, its input, its key, the
 * session's rules and its cost; a refusal makes no upstream call. The facts it learns pass on
 * by name (operation-facts.ts), in an order the pipeline checks.
 */
export function admissionStage(parts: GatewayParts): PipelineEntry[] {
  const { options, documents, settings } = parts;
  return [
    {
      name: "operation-limits",
      lane: { mirrors: "the lane runs only texts yoga validated under these limits" },
      plugin: useOperationLimits({
        maxDepth: settings.maxDepth,
        maxAliases: settings.maxAliases,
        maxTokens: settings.maxTokens,
      }),
    },
    {
      name: "well-formed-input",
      lane: "judges",
      plugin: useWellFormedInput({ maxValueDepth: settings.maxValueDepth }),
    },
    {
      name: "operation-deadline",
      lane: { mirrors: "the lane starts the same deadline (startOperationDeadline)" },
      plugin: useOperationDeadline({ deadlineMs: settings.operationDeadlineMs }),
    },
    { name: "key-bound", lane: "judges", plugin: useKeyBound() },
    {
      name: "read-only-sessions",
      lane: { stepsAside: "a session's rules are yoga's path alone" },
      plugin: options.session ? useReadOnlySessions(documents) : undefined,
    },
    {
      name: "answer-redaction",
      lane: { stepsAside: "a session's answers are redacted on yoga's path" },
      plugin: options.session ? useAnswerRedaction() : undefined,
    },
    {
      name: "no-introspection",
      lane: { mirrors: "the lane serves no introspection (preparable)" },
      plugin: options.introspection === false ? useNoIntrospection() : undefined,
    },
    { name: "variable-errors", lane: "judges", plugin: useVariableErrors(documents) },
    // An argument's variable is judged as coerced to its type: it reads variable-errors' facts.
    { name: "input-rules", lane: "judges", plugin: useInputRules(documents) },
    {
      name: "cost-limit",
      lane: "judges",
      plugin: useCostLimit({ maxUpstreamCalls: settings.maxUpstreamCalls, documents }),
    },
    { name: "api-key-gate", lane: "judges", plugin: useApiKeyGate(documents) },
  ];
}
