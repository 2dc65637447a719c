import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { inResponseOrder } from "../../src/gateway/execution/error-order.ts";
import { answersAsGraphqlJs } from "../../src/gateway/execution/jit-errors.ts";

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

describe("graphql-jit's result answered as graphql-js's", () => {
  it("is not, for an error beside a value where graphql-js would have a null", () => {
    expect(answersAsGraphqlJs({ errors: [errorAt(["a", 0])], data: { a: [null] } })).toBe(true);
    expect(answersAsGraphqlJs({ errors: [errorAt(["a", 0])], data: { a: [1] } })).toBe(false);
  });
});
