import {
  type GraphQLArgument,
  type GraphQLInputField,
  getNamedType,
  isInputObjectType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.ts";
import { ID_PREFIX } from "../../src/upstream/ids.ts";

/** Every argument and input field of the schema, named as `Type.field(arg)` or `Input.field`. */
function inputPlaces(): Array<[string, GraphQLArgument | GraphQLInputField]> {
  const places: Array<[string, GraphQLArgument | GraphQLInputField]> = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) places.push([`${type.name}.${field.name}(${arg.name})`, arg]);
      }
    }
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        places.push([`${type.name}.${field.name}`, field]);
      }
    }
  }
  return places;
}

const KIND_BY_PREFIX = new Map<string, string>(
  Object.entries(ID_PREFIX).map(([kind, prefix]) => [prefix, kind]),
);

describe("each ID argument's rule (use-input-rules.ts)", () => {
  const ids = inputPlaces().filter(([, place]) => getNamedType(place.type).name === "ID");

  it.each(ids.filter(([, place]) => /\(`[a-z]+_` prefix\)/.test(place.description ?? "")))(
    "%s declares the kind its description names",
    (_name, place) => {
      const prefix = /\(`([a-z]+_)` prefix\)/.exec(place.description ?? "")?.[1] ?? "";
      expect(place.extensions.idRule).toBe(KIND_BY_PREFIX.get(prefix));
    },
  );

  it("is declared on every ID argument of a root field, and on node(s) as any node's", () => {
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
    const undeclared = roots.flatMap((root) =>
      Object.values(root?.getFields() ?? {}).flatMap((field) =>
        field.args
          .filter((arg) => getNamedType(arg.type).name === "ID" && !arg.extensions.idRule)
          .map((arg) => `${field.name}(${arg.name})`),
      ),
    );
    expect(undeclared).toEqual([]);
    const query = schema.getQueryType()?.getFields();
    expect(query?.node?.args[0]?.extensions.idRule).toBe("node");
    expect(query?.nodes?.args[0]?.extensions.idRule).toBe("node");
  });

  it("refuses null in every input type that sends its fields as given", () => {
    const refusing = Object.values(schema.getTypeMap())
      .filter((type) => isInputObjectType(type) && type.extensions.refusesNull === true)
      .map((type) => type.name)
      .sort();
    expect(refusing).toEqual([
      "CreateAgentInput",
      "UpdateAgentInput",
      "UpdateOrganizationInput",
      "VoiceConfigInput",
    ]);
  });
});
