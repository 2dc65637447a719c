import { fileURLToPath } from "node:url";
import { printSchema } from "graphql";
import { schema } from "./index.ts";

/** The committed SDL: generated from the code, never edited by hand. */
export const SCHEMA_FILE = fileURLToPath(new URL("../../schema/schema.graphql", import.meta.url));

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}
