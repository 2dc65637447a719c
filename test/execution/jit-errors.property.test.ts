import fc from "fast-check";
import {
  buildSchema,
  type ExecutionResult,
  execute,
  type GraphQLError,
  type GraphQLFieldResolver,
  GraphQLObjectType,
  parse,
  responsePathAsArray,
} from "graphql";
import type { CompiledQuery } from "graphql-jit";
import { describe, expect, it } from "vitest";
import { inResponseOrder } from "../../src/gateway/preparation/error-order.ts";
import { onePerNull } from "../../src/gateway/preparation/errors-per-null.ts";
import { createJitCompiler } from "../../src/gateway/preparation/graphql-jit-adapter.ts";
import { asGraphqlJsResult } from "../../src/gateway/preparation/jit-errors.ts";
import { type ResponseShape, responseShape } from "../../src/gateway/preparation/response-shape.ts";
import { documentFactsOf } from "../../src/gateway/shared/document-facts.ts";

/**
 * Compiled execution answers from graphql-jit's result, its errors in graphql-js's shape
 * (jit-errors.ts), in response order (error-order.ts) and one for each null (errors-per-null.ts),
 * as every query's errors are answered. Here over a schema of every shape an error meets
 * (nullable and non-null leaves, objects, lists of them, nested lists), with errors and nulls
 * thrown into generated selections, each field sync or after a few turns of the event loop, and
 * each runtime given its own timings: the answer is graphql-js's, byte for byte, but for which
 * of several errors racing to one null graphql-js names, which is one of those graphql-jit saw.
 */
const FIELDS = `
  n: Int
  nn: Int!
  o: Item
  on: Item!
  l: [Item]
  ln: [Item!]
  lnn: [Item!]!
  ll: [[Item]]
  lln: [[Item!]!]
  ls: [Int]
  lsn: [Int!]
`;
const schema = buildSchema(`type Query { ${FIELDS} } type Item { ${FIELDS} }`);

/** What a field's name says of its type: how many lists deep, and whether it holds objects. */
const SHAPES: Record<string, { lists: number; object: boolean }> = {
  n: { lists: 0, object: false },
  nn: { lists: 0, object: false },
  o: { lists: 0, object: true },
  on: { lists: 0, object: true },
  l: { lists: 1, object: true },
  ln: { lists: 1, object: true },
  lnn: { lists: 1, object: true },
  ll: { lists: 2, object: true },
  lln: { lists: 2, object: true },
  ls: { lists: 1, object: false },
  lsn: { lists: 1, object: false },
};

/** Which run a resolver serves, and the seed its answers and timings are drawn from. */
interface Run {
  seed: number;
  runtime: "jit" | "graphql-js";
}

/** A number in [0, 1) drawn from the seed and the words: the same words, the same number. */
function draw(seed: number, ...words: (string | number)[]): number {
  let hash = 2166136261 ^ seed;
  for (const char of words.join("|")) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  }
  hash = Math.imul(hash ^ (hash >>> 15), 2246822507);
  hash = Math.imul(hash ^ (hash >>> 13), 3266489909);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 32;
}

/** The value after `turns` turns of promises, or its error rejected. */
function after(turns: number, value: () => unknown): Promise<unknown> {
  let settled = Promise.resolve();
  for (let turn = 0; turn < turns; turn++) settled = settled.then();
  const answer = settled.then(value);
  // A runtime that lets go of a list it nulled never reads its later items: not this test's matter.
  answer.catch(() => {});
  return answer;
}

/** What a place in the answer holds: an error, a null, or a value of the field's shape. */
function valueAt(run: Run, place: string, lists: number, object: boolean): unknown {
  const roll = draw(run.seed, place, "what");
  if (roll < 0.12) return new Error(`failed at ${place}`);
  if (roll < 0.2) return null;
  if (lists > 0) {
    const length = Math.floor(draw(run.seed, place, "length") * 4);
    return Array.from({ length }, (_, index) => {
      const item = `${place}.${index}`;
      // Always a promise: graphql-js 16 stops completing a list at an item that fails at once,
      // leaving its earlier items' promises unhandled (an unhandled rejection, not an answer).
      const turns = 1 + Math.floor(draw(run.seed, item, run.runtime) * 3);
      const value = valueAt(run, item, lists - 1, object);
      // An item's error is now and then the item itself, an Error, as both runtimes take it.
      const given = draw(run.seed, item, "given") < 0.5;
      return after(turns, () => {
        if (value instanceof Error && !given) throw value;
        return value;
      });
    });
  }
  if (object) return {};
  // Now and then a value an Int cannot represent: its serializer's error.
  return draw(run.seed, place, "bad") < 0.05 ? "not a number" : Math.floor(roll * 100);
}

/** The field's value, now or after a few turns by the runtime's own timing; an error thrown. */
function timed(run: Run, place: string, value: () => unknown): unknown {
  const turns = Math.floor(draw(run.seed, place, run.runtime) * 4);
  const settle = () => {
    const settled = value();
    if (settled instanceof Error) throw settled;
    return settled;
  };
  return turns === 0 ? settle() : after(turns, settle);
}

const resolve: GraphQLFieldResolver<unknown, Run> = (_source, _args, run, info) => {
  const place = responsePathAsArray(info.path).join(".");
  const shape = SHAPES[info.fieldName] ?? { lists: 0, object: false };
  return timed(run, place, () => valueAt(run, place, shape.lists, shape.object));
};
for (const type of Object.values(schema.getTypeMap())) {
  if (!(type instanceof GraphQLObjectType) || type.name.startsWith("__")) continue;
  for (const field of Object.values(type.getFields())) field.resolve = resolve;
}

/** A selection of up to three fields, objects' own selections `depth` deep, aliased now and then. */
function selection(depth: number): fc.Arbitrary<string> {
  const names = Object.keys(SHAPES).filter((name) => depth > 0 || !SHAPES[name]?.object);
  return fc
    .uniqueArray(fc.record({ name: fc.constantFrom(...names), alias: fc.boolean() }), {
      minLength: 1,
      maxLength: 3,
      selector: ({ name, alias }) => (alias ? `a_${name}` : name),
    })
    .chain((fields) =>
      fc
        .tuple(
          ...fields.map(({ name }) =>
            SHAPES[name]?.object ? selection(depth - 1) : fc.constant(""),
          ),
        )
        .map((inner) =>
          fields
            .map(({ name, alias }, index) => {
              const sub = inner[index] ? ` { ${inner[index]} }` : "";
              return `${alias ? `a_${name}: ` : ""}${name}${sub}`;
            })
            .join(" "),
        ),
    );
}

/** The result as it is answered: its errors as JSON, each with what it wraps, and its data. */
function answered(result: ExecutionResult): string {
  return JSON.stringify({
    errors: result.errors?.map((error) => ({
      ...error.toJSON(),
      original: error.originalError?.message,
    })),
    data: result.data,
  });
}

/** The result as the gateway answers it: errors in response order, one for each null. */
function asAnswered(result: ExecutionResult, shape: ResponseShape): ExecutionResult {
  return onePerNull(inResponseOrder(result, shape), shape);
}

/** The place of the null an error leaves in `data` (its path's first null), as a string. */
function nullOf(data: unknown, path: readonly (string | number)[]): string {
  let value = data;
  let depth = 0;
  while (value !== null && value !== undefined && depth < path.length) {
    value = (value as Record<string | number, unknown>)[path[depth] as string | number];
    depth += 1;
  }
  return JSON.stringify(path.slice(0, depth));
}

/** For each null in `data`, the errors of `result` that made it (their own null is that one). */
function causes(result: ExecutionResult, data: unknown, shape: ResponseShape) {
  const byNull = new Map<string, Set<string>>();
  for (const error of result.errors ?? []) {
    if (error.path === undefined) continue;
    const place = nullOf(data, error.path);
    const own = JSON.stringify(error.path.slice(0, shape.nullableDepth(error.path)));
    if (own !== place) continue;
    byNull.set(place, (byNull.get(place) ?? new Set()).add(JSON.stringify(error.path)));
  }
  return byNull;
}

describe("graphql-jit's result with errors, as compiled execution answers it", () => {
  it("is graphql-js's, whatever order either runtime's fields settle in", async () => {
    const compile = createJitCompiler();
    const counts = { several: 0, raced: 0, leftOut: 0 };
    await fc.assert(
      fc.asyncProperty(selection(3), fc.integer(), async (fields, seed) => {
        const document = parse(`{ ${fields} }`);
        const shape = responseShape(schema, documentFactsOf(document), undefined) as ResponseShape;
        const compiled = compile(schema, document) as CompiledQuery;
        const jitRun = asGraphqlJsResult(
          (await compiled.query(undefined, { seed, runtime: "jit" }, {})) as ExecutionResult,
          document.loc?.source,
        );
        const graphqlJsRun = await execute({
          schema,
          document,
          contextValue: { seed, runtime: "graphql-js" },
        });
        // graphql-js may add to its errors after it answers: what it answered is a copy.
        const jsRun = { ...graphqlJsRun, errors: graphqlJsRun.errors && [...graphqlJsRun.errors] };
        const jit = asAnswered(jitRun, shape);
        const js = asAnswered(jsRun, shape);
        expect(JSON.stringify(jit.data)).toBe(JSON.stringify(js.data));
        const raced = new Map<string, Set<string>>();
        for (const run of [jitRun, jsRun]) {
          for (const [place, paths] of causes(run, jit.data, shape)) {
            raced.set(place, new Set([...(raced.get(place) ?? []), ...paths]));
          }
        }
        const jitErrors = jit.errors ?? [];
        const jitOrdered = inResponseOrder(jitRun, shape).errors ?? [];
        const jsErrors = js.errors ?? [];
        expect(jsErrors.map((error) => nullOf(jit.data, error.path ?? []))).toEqual(
          jitErrors.map((error) => nullOf(jit.data, error.path ?? [])),
        );
        jitErrors.forEach((error, index) => {
          const theirs = jsErrors[index] as GraphQLError;
          const place = nullOf(jit.data, error.path ?? []);
          if ((raced.get(place)?.size ?? 0) > 1) {
            // Errors raced to this null: graphql-js names one of those graphql-jit saw, and the
            // answer the first of them in response order.
            counts.raced += 1;
            expect(raced.get(place)).toContain(JSON.stringify(theirs.path));
            const first = jitOrdered.find((seen) => {
              const path = seen.path ?? [];
              const own = JSON.stringify(path.slice(0, shape.nullableDepth(path)));
              return nullOf(jit.data, path) === place && own === place;
            });
            expect(error).toBe(first);
          } else {
            expect(answered({ errors: [error], data: null })).toBe(
              answered({ errors: [theirs], data: null }),
            );
          }
        });
        if (jitErrors.length > 1) counts.several += 1;
        if (jitErrors.length < (jitRun.errors?.length ?? 0)) counts.leftOut += 1;
      }),
      { numRuns: 600 },
    );
    // The property says something: answers with several errors, errors left out, and races.
    expect(counts.several).toBeGreaterThan(20);
    expect(counts.leftOut).toBeGreaterThan(10);
    expect(counts.raced).toBeGreaterThan(0);
  });
});
