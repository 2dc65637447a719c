/**
 * What the plugins learn about one operation before it runs, passed from one to the next in one
 * typed field of the operation's context (`facts`), never in a module-level map.
 */
export interface OperationFacts {
  /** The variables coerced to their types (use-variable-errors.ts). */
  variables?: Record<string, unknown>;
  /** The static estimate of upstream calls (use-cost-limit.ts). */
  estimatedUpstreamCalls?: number;
}

/**
 * The facts of the operation whose context this is: a typed field of the context itself
 * (GatewayContext.facts), made here on the first plugin's ask, so they live and die with the
 * operation. The facts of its document, the same for every operation of it, are document-facts.ts's.
 */
export function factsOf(context: object): OperationFacts {
  const holder = context as { facts?: OperationFacts };
  holder.facts ??= {};
  return holder.facts;
}
