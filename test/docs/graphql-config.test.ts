import { readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { type DocumentNode, type GraphQLSchema, validate } from "graphql";
import { loadConfig } from "graphql-config";
import { describe, expect, it } from "vitest";
import codegen from "../../codegen.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** graphql.config.yml as editors load it: through graphql-config, the package they use. */
describe("graphql.config.yml", () => {
  it("points editors at the printed schema and at the documents codegen reads", async () => {
    const config = await loadConfig({ rootDir: ROOT, throwOnMissing: true, throwOnEmpty: true });
    const project = config?.getDefault();
    expect(project?.schema).toBe(codegen.schema);
    expect([project?.documents].flat()).toEqual([codegen.documents].flat());

    const schema = await project?.getSchema();
    expect(schema?.getQueryType()?.getFields()).toHaveProperty("conversations");
    const documents = (await project?.getDocuments()) ?? [];
    const files = readdirSync(join(ROOT, "test/operations")).filter((f) => f.endsWith(".graphql"));
    expect(documents.map((source) => basename(source.location ?? "")).sort()).toEqual(files.sort());
    // Every document editors will check is one the schema validates, as codegen does.
    for (const source of documents) {
      expect(validate(schema as GraphQLSchema, source.document as DocumentNode)).toEqual([]);
    }
  });
});
