/**
 * What the plugins learn about one operation before it runs, passed from one to the next through
 * this typed store (keyed by the operation's context) rather than through fields on the context.
 */
export interface OperationFacts {
  /** The variables coerced to their types (use-variable-errors.ts). */
  variables?: Record<string, unknown>;
  /** The static estimate of upstream calls (use-cost-limit.ts). */
  estimatedUpstreamCalls?: number;
}

const facts = new WeakMap<object, OperationFacts>();

export function factsOf(context: object): OperationFacts {
  let known = facts.get(context);
  if (known === undefined) {
    known = {};
    facts.set(context, known);
  }
  return known;
}
