import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { isScalarType, Kind, type OperationDefinitionNode, parse } from "graphql";
import { getVariableValues } from "graphql/execution/values.js";
import { describe, expect, it } from "vitest";
import { type JsonSchema, variablesSchema } from "../../src/gateway/mcp/json-schemas.ts";
import { toolsOfDocument } from "../../src/gateway/mcp/operation-tools.ts";
import { schema } from "../../src/schema/index.ts";

const FOLDER = join(import.meta.dirname, "../operations");
const DOCUMENTS = readdirSync(FOLDER).map((name) => readFileSync(join(FOLDER, name), "utf8"));
const OPERATIONS = DOCUMENTS.flatMap((text) =>
  parse(text).definitions.filter(
    (node): node is OperationDefinitionNode =>
      node.kind === Kind.OPERATION_DEFINITION && node.operation !== "subscription",
  ),
);

/**
 * Values shaped by a JSON Schema, often valid and often not: each place may also be any JSON,
 * an integer past 32 bits, a string that is no date-time, or an unknown property.
 */
function valuesOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const near = (): fc.Arbitrary<unknown> => {
    if (Array.isArray(schema.anyOf))
      return fc.oneof(...(schema.anyOf as JsonSchema[]).map(valuesOf));
    if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...schema.enum), fc.string());
    switch (schema.type) {
      case "null":
        return fc.constant(null);
      case "string":
        return schema.format === "date-time"
          ? fc.oneof(
              fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
              fc.string(),
            )
          : fc.string();
      case "integer":
        return fc.oneof(fc.integer(), fc.maxSafeInteger());
      case "number":
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(valuesOf(schema.items as JsonSchema), { maxLength: 3 });
      default: {
        const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
        if (Object.keys(properties).length === 0) return fc.dictionary(fc.string(), fc.jsonValue());
        const known = fc.record(
          Object.fromEntries(
            Object.entries(properties).map(([name, each]) => [name, valuesOf(each)]),
          ),
          { requiredKeys: [] },
        );
        return fc.oneof(
          { arbitrary: known, weight: 4 },
          fc
            .tuple(known, fc.string(), fc.jsonValue())
            .map(([value, key, extra]) => ({ ...value, [key]: extra })),
        );
      }
    }
  };
  return fc.oneof({ arbitrary: near(), weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
}

describe("MCP input schemas", () => {
  it("type every scalar of the schema, so every test operation is a tool", () => {
    const skipped: string[] = [];
    const tools = DOCUMENTS.flatMap((text) =>
      toolsOfDocument(text, schema, { mutations: true, origin: "test" }, skipped),
    );
    expect(skipped).toEqual([]);
    expect(tools.length).toBe(OPERATIONS.filter((operation) => operation.name).length);
    const scalars = Object.values(schema.getTypeMap()).filter(
      (type) => isScalarType(type) && !type.name.startsWith("__"),
    );
    for (const scalar of scalars) {
      const probe = parse(`query Probe($value: ${scalar.name}) { __typename }`);
      const operation = probe.definitions[0] as OperationDefinitionNode;
      expect(variablesSchema(schema, operation).properties).toHaveProperty("value");
    }
  });

  it("accept only arguments the gateway's own variable rules accept", () => {
    const ajv = new AjvJsonSchemaValidator();
    for (const operation of OPERATIONS) {
      const inputSchema = variablesSchema(schema, operation);
      const accepts = ajv.getValidator(inputSchema as never);
      fc.assert(
        fc.property(valuesOf(inputSchema), (args) => {
          if (!accepts(args).valid) return;
          const coerced = getVariableValues(
            schema,
            operation.variableDefinitions ?? [],
            args as Record<string, unknown>,
          );
          expect(coerced.errors ?? []).toEqual([]);
        }),
        { numRuns: 200 },
      );
    }
  });
});
