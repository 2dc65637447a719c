import { type DocumentNode, Kind, parse, print } from "graphql";
import { describe, expect, it } from "vitest";
import { criticalFirst } from "../../src/gateway/preparation/critical-first.ts";
import { documentFactsOf } from "../../src/gateway/shared/document-facts.ts";
import { schema } from "../../src/schema/index.ts";

/** The order criticalFirst gives the document's root fields, or undefined when it keeps them. */
function orderOf(text: string, variables: Record<string, unknown> = {}) {
  const document = parse(text);
  const facts = documentFactsOf(document);
  const operation = facts.operation(undefined);
  if (operation === undefined) throw new Error("no operation");
  const order = criticalFirst(schema, document, operation, facts.fragments, variables);
  return order && { fields: rootKeys(order.document), restore: order.restore };
}

function rootKeys(document: DocumentNode): string[] {
  const [operation] = documentFactsOf(document).operations;
  return (operation?.selectionSet.selections ?? []).map((s) =>
    s.kind === Kind.FIELD ? (s.alias?.value ?? s.name.value) : print(s),
  );
}

describe("the order a compiled query's root fields run in", () => {
  it("runs the field that leads to the most calls first, ties in the document's order", () => {
    const order = orderOf(`{
      organization { name }
      campaigns(first: 2) { nodes { id } }
      list: conversations(first: 10) { nodes { agent { name } contact { stats } } }
      agent(id: "agt_1") { stats }
    }`);
    // Estimates: the list 23, the campaigns' page 2, the agent and its stats 2, the organization 1.
    expect(order?.fields).toEqual(["list", "campaigns", "agent", "organization"]);
    // The answer's root fields go back to the document's order, values untouched.
    const data = { list: 1, campaigns: 2, agent: 3, organization: 4 };
    expect(JSON.stringify(order?.restore({ data }).data)).toBe(
      JSON.stringify({ organization: 4, campaigns: 2, list: 1, agent: 3 }),
    );
  });

  it("reads the page size from the variables, and leaves out a skipped field", () => {
    const text = `query Q($n: Int, $flag: Boolean!) {
      organization { name }
      conversations(first: $n) @include(if: $flag) { nodes { agent { name } } }
    }`;
    const order = orderOf(text, { n: 5 });
    expect(order?.fields).toEqual(["conversations", "organization"]);
    expect(order?.restore({ data: { organization: 1 } }).data).toEqual({ organization: 1 });
  });

  it("keeps the document's order for a fragment, another directive, or a key selected twice", () => {
    const list = "conversations(first: 5) { nodes { agent { name } } }";
    expect(orderOf(`{ organization { name } ${list} }`)?.fields).toEqual([
      "conversations",
      "organization",
    ]);
    expect(orderOf(`{ ...on Query { organization { name } } ${list} }`)).toBeUndefined();
    expect(orderOf(`{ organization @deprecatedUse { name } ${list} }`)).toBeUndefined();
    expect(
      orderOf(
        `query Q($f: Boolean!) { a: organization @skip(if: $f) { name } ${list} a: organization { name } }`,
      ),
    ).toBeUndefined();
    expect(orderOf(`{ ${list} organization { name } }`)).toBeUndefined();
    expect(orderOf(`mutation { ${list} }`)).toBeUndefined();
  });
});
