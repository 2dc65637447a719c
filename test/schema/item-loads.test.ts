import { type FieldNode, type FragmentDefinitionNode, Kind, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { itemLoadsOf } from "../../src/schema/item-loads.ts";

/** The info of the document's first root field, as an executor hands it to its resolver. */
function infoOf(document: string) {
  const parsed = parse(document);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  let field: FieldNode | undefined;
  for (const definition of parsed.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      field ??= definition.selectionSet.selections[0] as FieldNode;
    }
  }
  if (!field) throw new Error("no root field");
  return { fieldNodes: [field], fragments };
}

const NONE = { agent: false, contactStats: false };

describe("the item loads a page's selection asks for", () => {
  it("reads agent and contact stats under nodes and under edges { node }", () => {
    expect(
      itemLoadsOf(infoOf("{ conversations { nodes { id agent { id } contact { stats } } } }")),
    ).toEqual({ agent: true, contactStats: true });
    expect(
      itemLoadsOf(infoOf("{ conversations { edges { cursor node { contact { id stats } } } } }")),
    ).toEqual({ agent: false, contactStats: true });
    expect(itemLoadsOf(infoOf("{ c: conversations { nodes { a: agent { name } } } }"))).toEqual({
      agent: true,
      contactStats: false,
    });
  });

  it("asks for no stats when the contact is selected without them", () => {
    expect(itemLoadsOf(infoOf("{ conversations { nodes { id status contact { id } } } }"))).toEqual(
      NONE,
    );
    expect(
      itemLoadsOf(infoOf("{ conversations { totalCount pageInfo { hasNextPage } } }")),
    ).toEqual(NONE);
  });

  it("follows inline fragments and named fragments at every level", () => {
    const document = `
      { conversations { ...Page } }
      fragment Page on ConversationConnection { edges { node { ... on Conversation { ...Item } } } }
      fragment Item on Conversation { agent { id } contact { ... { stats } } }
    `;
    expect(itemLoadsOf(infoOf(document))).toEqual({ agent: true, contactStats: true });
  });

  it("counts nothing under a directive: the item's own field decides then", () => {
    for (const document of [
      "{ conversations { nodes { agent @skip(if: true) { id } contact { stats @include(if: false) } } } }",
      "query($x: Boolean!) { conversations { nodes @include(if: $x) { agent { id } contact { stats } } } }",
      "{ conversations { edges { node @skip(if: true) { agent { id } contact { stats } } } } }",
      "{ conversations { nodes @stream { agent { id } } edges { ...E @skip(if: true) } } }\n" +
        "fragment E on ConversationEdge { node { contact { stats } } }",
      "{ conversations { nodes { ... @include(if: false) { agent { id } } contact @skip(if: true) { stats } } } }",
    ]) {
      expect(itemLoadsOf(infoOf(document)), document).toEqual(NONE);
    }
  });
});
