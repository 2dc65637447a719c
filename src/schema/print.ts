import { fileURLToPath } from "node:url";
import { graphqlSync, printSchema } from "graphql";
import { schema } from "./index.ts";
import { subgraphSchema } from "./subgraph.ts";

/** The committed SDL: generated from the code, never edited by hand. */
export const SCHEMA_FILE = fileURLToPath(new URL("../../schema/schema.graphql", import.meta.url));

/** The committed subgraph SDL (FEDERATION=on), for a supergraph's composition and checks. */
export const SUBGRAPH_FILE = fileURLToPath(
  new URL("../../schema/subgraph.graphql", import.meta.url),
);

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}

/** Exactly what a router reads from `_service { sdl }`, so the file is what routers compose. */
export function printedSubgraph(): string {
  const result = graphqlSync({ schema: subgraphSchema, source: "{ _service { sdl } }" });
  const sdl = (result.data as { _service?: { sdl?: unknown } } | null)?._service?.sdl;
  if (typeof sdl !== "string") throw new Error("the subgraph schema answered no `_service.sdl`");
  return `${sdl.trimEnd()}\n`;
}
