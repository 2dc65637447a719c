import type { ExecutionResult } from "graphql";

/**
 * What the stages learn about one operation before it runs, passed from one to the next in one
 * typed field of the operation's context (`facts`), never in a module-level map. Each fact has
 * one producing stage; a stage reads a fact only by a name it declared (`factFlow`), and the
 * pipeline refuses, at start-up, a stage that reads what no earlier stage produces (pipeline.ts).
 */
export interface OperationFacts {
  /** The variables coerced to their types (use-variable-errors.ts). */
  variables: Record<string, unknown>;
  /** The static estimate of upstream calls (use-cost-limit.ts). */
  estimatedUpstreamCalls: number;
  /**
   * The compiled run's result with an error that the prepared lane hands to yoga instead of
   * answering (prepared-lane.ts): compiled execution takes it as its own run's, once.
   */
  laneResult: ExecutionResult;
}

export type FactName = keyof OperationFacts;

/** What one stage does with the facts, as the pipeline checks it. */
export interface FactFlow {
  readonly produces: readonly FactName[];
  readonly reads: readonly FactName[];
  /** Facts read once if produced, and gone after: what an earlier stage may or may not hand on. */
  readonly takes?: readonly FactName[];
}

/** A fact read before its stage produced it: a defect of the gateway, never a client's. */
export class MissingFactError extends Error {}

/**
 * A stage's declared facts, and the only way it touches them: `produce` takes only a name it
 * declared it produces and `read` only a name it declared it reads (the compiler holds the stage
 * to its declaration, the pipeline holds the order). A read finds the fact or throws: no default
 * stands in for a missing one.
 */
export function factFlow<
  const Produces extends readonly FactName[] = [],
  const Reads extends readonly FactName[] = [],
  const Takes extends readonly FactName[] = [],
>(flow: { produces?: Produces; reads?: Reads; takes?: Takes }) {
  const produces = (flow.produces ?? []) as Produces;
  const reads = (flow.reads ?? []) as Reads;
  const takes = (flow.takes ?? []) as Takes;
  return {
    produces,
    reads,
    takes,
    produce<Name extends Produces[number]>(
      context: object,
      name: Name,
      value: OperationFacts[Name],
    ): void {
      const holder = context as { facts?: Partial<OperationFacts> };
      holder.facts ??= {};
      holder.facts[name] = value;
    },
    read<Name extends Reads[number]>(context: object, name: Name): OperationFacts[Name] {
      const value = (context as { facts?: Partial<OperationFacts> }).facts?.[name];
      if (value === undefined) {
        throw new MissingFactError(`the operation's ${name} was read before it was produced`);
      }
      return value as OperationFacts[Name];
    },
    take<Name extends Takes[number]>(
      context: object,
      name: Name,
    ): OperationFacts[Name] | undefined {
      const holder = (context as { facts?: Partial<OperationFacts> }).facts;
      const value = holder?.[name];
      if (value !== undefined) delete holder?.[name];
      return value as OperationFacts[Name] | undefined;
    },
  };
}
