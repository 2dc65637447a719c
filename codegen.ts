import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed documents for the operations in test/operations, generated from the committed SDL, as
 * a codegen consumer of the gateway would. The end-to-end tests send these documents, so the
 * schema is proven usable by codegen; `npm test` checks that the output is up to date.
 */
const config: CodegenConfig = {
  schema: "schema/schema.graphql",
  documents: ["test/operations/*.graphql"],
  generates: {
    "test/generated/": {
      preset: "client",
      // persisted-documents.json: the trusted-documents manifest (TRUSTED_DOCUMENTS_FILE), which
      // the settings matrix's trusted-only runs serve.
      presetConfig: { fragmentMasking: false, persistedDocuments: true },
      config: {
        // Relative imports with an extension, as Node 24 and our tsconfig want them.
        importExtension: ".ts",
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: "string", JSONObject: "Record<string, unknown>" },
      },
    },
  },
};

export default config;
