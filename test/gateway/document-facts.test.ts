import { parse } from "graphql";
import { afterEach, describe, expect, it } from "vitest";
import { documentFactsOf } from "../../src/gateway/shared/document-facts.ts";
import { type Harness, startHarness } from "./harness.ts";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// Variables, a fragment and a connection: the variable check, the cost estimate, compiled
// execution, incremental delivery, metrics, the upstream report and live queries all read it.
const QUERY = `query Page($first: Int) {
  organization { ...Named }
  agents(first: $first) { edges { node { id name } } }
}
fragment Named on Organization { id name }`;

describe("the facts of a document", () => {
  it("are worked out once per document, however many plugins and requests read them", async () => {
    harness = await startHarness();
    const { documentFacts } = harness.gateway;
    expect(documentFacts.computed).toBe(0);

    for (let run = 0; run < 3; run++) {
      const response = await harness.graphql(QUERY, { first: 2 });
      expect(response.body.errors).toBeUndefined();
      expect(documentFacts.computed).toBe(1);
    }
    // Another text is another document.
    await harness.graphql("{ organization { id } }");
    expect(documentFacts.computed).toBe(2);
  });

  it("choose the operation as graphql-js's getOperationAST does", () => {
    const two = documentFactsOf(parse("query A { a } query B { b } fragment F on Q { c }"));
    expect(two.operation("B")?.name?.value).toBe("B");
    expect(two.operation(null)).toBeUndefined();
    expect(two.operation("")).toBeUndefined();
    expect([...two.fragments.keys()]).toEqual(["F"]);

    const plain = parse("{ a @include(if: true) }");
    const anonymous = documentFactsOf(plain);
    expect(anonymous.operation(undefined)?.operation).toBe("query");
    expect(anonymous.operation("A")).toBeUndefined();
    expect(anonymous.incremental).toBe(false);
    // Without `@defer` or `@stream`, the whole form is the document itself.
    expect(anonymous.wholeForm).toBe(plain);
  });

  it("know a request for parts, and the document without them", () => {
    const deferred = documentFactsOf(parse("{ a ... @defer { b } c @stream }"));
    expect(deferred.incremental).toBe(true);
    expect(documentFactsOf(deferred.wholeForm).incremental).toBe(false);
    expect(deferred.wholeForm).toBe(deferred.wholeForm);
    expect(documentFactsOf(parse("{ __schema { types { name } } }")).introspective).toBe(true);
  });
});
