import { buildSchema, GraphQLError, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { inResponseOrder } from "../../src/gateway/preparation/error-order.ts";
import { onePerNull } from "../../src/gateway/preparation/errors-per-null.ts";
import { type ResponseShape, responseShape } from "../../src/gateway/preparation/response-shape.ts";
import { documentFactsOf } from "../../src/gateway/shared/document-facts.ts";

/** An error at `path` (none when undefined), located at `line`:1. */
function errorAt(path: (string | number)[] | undefined, line = 1): GraphQLError {
  const error = new GraphQLError(`at ${path?.join(".") ?? "nowhere"}`, { path });
  Object.defineProperty(error, "locations", { value: [{ line, column: 1 }] });
  return error;
}

const messages = (errors: readonly GraphQLError[] | undefined) =>
  errors?.map((error) => error.message);

describe("a query's errors in response order", () => {
  it("orders fields as the answer's keys come, items by index, an error without a path first", () => {
    const data = { b: { y: null, x: null }, a: [null, { c: null }, null] };
    const errors = [
      errorAt(["a", 2]),
      errorAt(["a", 1, "c"]),
      errorAt(["b", "x"]),
      errorAt(undefined),
      errorAt(["b", "y"]),
      errorAt(["a", 0]),
    ];

    const ordered = inResponseOrder({ errors, data });

    expect(messages(ordered.errors)).toEqual([
      "at nowhere",
      "at b.y",
      "at b.x",
      "at a.0",
      "at a.1.c",
      "at a.2",
    ]);
    expect(Object.keys(ordered)).toEqual(["errors", "data"]);
  });

  it("orders errors whose paths part under a null by where their fields stand in the document", () => {
    // Two errors under one null, as graphql-js can record them: the answer cannot order them.
    const data = { a: null };
    const errors = [errorAt(["a", "x", "z"], 3), errorAt(["a", "y"], 2)];

    expect(messages(inResponseOrder({ errors, data }).errors)).toEqual(["at a.y", "at a.x.z"]);
  });
});

const schema = buildSchema(`
  type Query { o: Item, on: Item!, l: [Item!] }
  type Item { n: Int, nn: Int!, mm: Int!, o: Item }
`);
const shapeOf = (text: string) =>
  responseShape(schema, documentFactsOf(parse(text)), undefined) as ResponseShape;

describe("errors under a null, ordered by the document", () => {
  it("orders keys as the answer would, a fragment's fields where it is spread", () => {
    // The fragment's text comes after `mm`, its field before `mm` in the answer.
    const shape = shapeOf("{ o { ...F mm } } fragment F on Item { nn }");
    const errors = [errorAt(["o", "mm"], 1), errorAt(["o", "nn"], 2)];

    expect(messages(inResponseOrder({ errors, data: { o: null } }, shape).errors)).toEqual([
      "at o.nn",
      "at o.mm",
    ]);
  });
});

describe("one error for each null", () => {
  it("keeps the first in response order of the errors that null one place", () => {
    const shape = shapeOf("{ o { nn mm } }");
    const errors = [errorAt(["o", "nn"]), errorAt(["o", "mm"])];

    expect(messages(onePerNull({ errors, data: { o: null } }, shape).errors)).toEqual(["at o.nn"]);
  });

  it("leaves out an error whose own null lies inside a null another error made", () => {
    // `n` is nullable: its error nulled `o.n`, which `mm`'s error took out of the answer with `o`.
    const shape = shapeOf("{ o { n o { n } mm } }");
    const errors = [errorAt(["o", "n"]), errorAt(["o", "o", "n"]), errorAt(["o", "mm"])];

    expect(messages(onePerNull({ errors, data: { o: null } }, shape).errors)).toEqual(["at o.mm"]);
  });

  it("keeps one error where the answer is null, and errors at other nulls", () => {
    const shape = shapeOf("{ o { n } on { nn mm } }");
    const errors = [errorAt(["o", "n"]), errorAt(["on", "nn"]), errorAt(["on", "mm"])];

    expect(messages(onePerNull({ errors, data: null }, shape).errors)).toEqual(["at on.nn"]);
    const beside = [errorAt(["o", "n"]), errorAt(["l", 1, "nn"]), errorAt(["l", 0, "mm"])];
    const data = { o: { n: null }, l: null };
    expect(messages(onePerNull({ errors: beside, data }, shape).errors)).toEqual([
      "at o.n",
      "at l.1.nn",
    ]);
  });

  it("keeps errors without a place, and errors beside a value, as they are", () => {
    const shape = shapeOf("{ o { nn mm } }");
    const errors = [errorAt(undefined), errorAt(["o", "nn"]), errorAt(["o", "mm"])];

    expect(messages(onePerNull({ errors, data: { o: { nn: 1, mm: 2 } } }, shape).errors)).toEqual([
      "at nowhere",
      "at o.nn",
      "at o.mm",
    ]);
  });
});

describe("where an error's own null lies, by the schema and the document", () => {
  const abstract = buildSchema(`
    type Query { u: U, list: [A!]! }
    union U = A | B
    type A { x: Int!, y: Int }
    type B { x: Int, z: Int! }
  `);
  const depthOf = (text: string, path: (string | number)[]) =>
    responseShape(abstract, documentFactsOf(parse(text)), undefined)?.nullableDepth(path);

  it("follows fragments, lists and the types a union may be", () => {
    expect(depthOf("{ u { ... on A { x y } } }", ["u", "x"])).toBe(1);
    expect(depthOf("{ u { ... on A { x y } } }", ["u", "y"])).toBe(2);
    expect(depthOf("{ u { ... on B { z } } }", ["u", "z"])).toBe(1);
    expect(depthOf("{ list { x } }", ["list", 3, "x"])).toBe(0);
    expect(depthOf("{ list { y } }", ["list", 3, "y"])).toBe(3);
  });

  it("says nothing where the types a place may be disagree, or no field is selected", () => {
    // `x` is non-null on A and nullable on B: the runtime type decides, which a null hides.
    expect(depthOf("{ u { ... on A { x } ... on B { x } } }", ["u", "x"])).toBeUndefined();
    expect(depthOf("{ u { ... on A { x } } }", ["u", "nope"])).toBeUndefined();
    expect(depthOf("{ list { x } }", ["list", "x"])).toBeUndefined();
  });
});
