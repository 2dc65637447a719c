import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { GraphQLError, ValidationContext } from "graphql";
import type { Plugin } from "graphql-yoga";
import { type ErrorCode, gatewayError } from "../../errors.ts";
import { requestLevel } from "../shared/http-status.ts";

export interface OperationLimitsOptions {
  /** Deepest selection allowed (introspection's `__schema` not counted). */
  maxDepth: number;
  /** Most aliases in one operation, `__typename`'s counted. */
  maxAliases: number;
  /** Most tokens in one document, checked while parsing. */
  maxTokens: number;
}

/**
 * graphql-armor's depth and alias rules, reporting like any validation error: HTTP 400, no
 * upstream call, and a catalogue code. Left to themselves they throw out of `validate`, which
 * yoga answers with HTTP 200 and a code-less "Syntax Error: ..." that is not a syntax error.
 */
export function useOperationLimits(options: OperationLimitsOptions): Plugin {
  const { maxDepth, maxAliases } = options;
  const depthRule = maxDepthRule({
    n: maxDepth,
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [report("DEPTH_LIMIT_EXCEEDED", maxDepth)],
  });
  const aliasesRule = maxAliasesRule({
    n: maxAliases,
    // graphql-armor lets `__typename` aliases pass uncounted by default: a thousand of them
    // still cost parsing, validation and an answer's bytes.
    allowList: [],
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [report("ALIAS_LIMIT_EXCEEDED", maxAliases)],
  });
  return {
    onPluginInit({ addPlugin }) {
      // A parse-time bound: a huge document is cut off before it costs parsing time.
      addPlugin(maxTokensPlugin({ n: options.maxTokens, exposeLimits: true }));
    },
    onValidate({ addValidationRule }) {
      addValidationRule(depthRule);
      addValidationRule(aliasesRule);
    },
  };
}

function report(code: ErrorCode, limit: number) {
  return (context: ValidationContext | null, rejection: GraphQLError): void => {
    const message = rejection.message.replace(/^Syntax Error: /, "");
    // A catalogue refusal with its status: 400 whatever the client accepts (docs/http.md).
    context?.reportError(requestLevel(gatewayError(code, message, { limit })));
  };
}
