import { useApiKeyGate } from "./admission/use-api-key-gate.ts";
import { useCostLimit } from "./admission/use-cost-limit.ts";
import { useInputRules } from "./admission/use-input-rules.ts";
import { useKeyBound } from "./admission/use-key-bound.ts";
import { useOperationLimits } from "./admission/use-operation-limits.ts";
import { useVariableErrors } from "./admission/use-variable-errors.ts";
import { useWellFormedInput } from "./admission/use-well-formed-input.ts";
import { GATEWAY_DEFAULTS } from "./defaults.ts";
import { useOperationDeadline } from "./execution/use-operation-deadline.ts";
import type { GatewayParts } from "./gateway-parts.ts";
import type { PipelineEntry } from "./pipeline.ts";
import { useNoIntrospection, useReadOnlySessions } from "./session/session-mode.ts";
import { useAnswerRedaction } from "./session/use-answer-redaction.ts";

/**
 * An operation judged before anything runs (admission/): its shape, its input, its key, the
 * session's rules and its cost; a refusal makes no upstream call. The facts it learns pass on
 * by name (operation-facts.ts), in an order the pipeline checks.
 */
export function admissionStage(parts: GatewayParts): PipelineEntry[] {
  const { options, documents } = parts;
  return [
    {
      name: "operation-limits",
      plugin: useOperationLimits({
        maxDepth: options.maxDepth ?? GATEWAY_DEFAULTS.maxDepth,
        maxAliases: options.maxAliases ?? GATEWAY_DEFAULTS.maxAliases,
        maxTokens: parts.maxTokens,
      }),
    },
    {
      name: "well-formed-input",
      plugin: useWellFormedInput({ maxValueDepth: GATEWAY_DEFAULTS.maxValueDepth }),
    },
    {
      name: "operation-deadline",
      plugin: useOperationDeadline({ deadlineMs: parts.operationDeadlineMs }),
    },
    { name: "key-bound", plugin: useKeyBound() },
    {
      name: "read-only-sessions",
      plugin: options.session ? useReadOnlySessions(documents) : undefined,
    },
    { name: "answer-redaction", plugin: options.session ? useAnswerRedaction() : undefined },
    {
      name: "no-introspection",
      plugin: options.introspection === false ? useNoIntrospection() : undefined,
    },
    { name: "variable-errors", plugin: useVariableErrors(documents) },
    // An argument's variable is judged as coerced to its type: it reads variable-errors' facts.
    { name: "input-rules", plugin: useInputRules(documents) },
    {
      name: "cost-limit",
      plugin: useCostLimit({ maxUpstreamCalls: parts.dependencies.maxUpstreamCalls, documents }),
    },
    { name: "api-key-gate", plugin: useApiKeyGate(documents) },
  ];
}
