import { createRequire } from "node:module";
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import {
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
  isListType,
  isNonNullType,
} from "graphql";
import { compileQuery } from "graphql-jit";
import type { CoercedVariableValues } from "graphql-jit/dist/variables";

/**
 * The one file that reaches into graphql-jit (pinned in package.json to the version below):
 * its compiled coercion of variables, which the package root does not export, and the root's
 * `compileQuery` around what 0.8.9 does wrong with a list's rejected items.
 * test/gateway/graphql-jit-adapter.test.ts fails, naming this adapter, when an upgrade moves what
 * it relies on.
 */
export const GRAPHQL_JIT_ADAPTER = {
  name: "graphql-jit-adapter",
  writtenAgainst: "0.8.9",
} as const;

/** Where graphql-jit keeps its variable coercion: its CommonJS build's own file. */
export const GRAPHQL_JIT_VARIABLES_MODULE = "graphql-jit/dist/variables.js";

export type { CoercedVariableValues };

// graphql-jit's ES module of this file imports "./generate" without an extension, which Node's
// ESM loader refuses; its CommonJS build loads (the same graphql, which is CommonJS either way).
const jitVariables = createRequire(import.meta.url)(
  GRAPHQL_JIT_VARIABLES_MODULE,
) as typeof import("graphql-jit/dist/variables");

export const { compileVariableParsing, failToParseVariables } = jitVariables;

/**
 * graphql-jit's `compileQuery`, over a view of each schema whose list fields never hand
 * graphql-jit a rejected item: 0.8.9 appends a rejected item's null to the list instead of
 * writing it at the item's index, which loses or moves items. Each item's rejection settles to
 * its Error instead, which graphql-jit, like graphql-js, records at the item's own index.
 * One compiler per gateway: it keeps each schema's view as long as the schema lives.
 */
export function createJitCompiler(): typeof compileQuery {
  const views = new WeakMap<GraphQLSchema, GraphQLSchema>();
  return (schema, document, operationName, options) => {
    let view = views.get(schema);
    if (view === undefined) {
      view = withSettledListItems(schema);
      views.set(schema, view);
    }
    return compileQuery(view, document, operationName, options);
  };
}

/** The schema, each list field's resolver wrapped so that no item it returns rejects. */
function withSettledListItems(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName) => {
      const depth = listDepth(field.type);
      if (depth === 0) return field;
      // graphql-jit's own resolver for a field without one.
      const resolve: GraphQLFieldResolver<unknown, unknown> =
        field.resolve ?? ((source) => (source as Record<string, unknown> | null)?.[fieldName]);
      return {
        ...field,
        resolve: (source, args, context, info) => {
          const value = resolve(source, args, context, info);
          return isPromiseLike(value)
            ? value.then((list) => settled(list, depth))
            : settled(value, depth);
        },
      };
    },
  });
}

/** How many lists the type nests, through non-null wrappers: `[[T!]]!` is 2. */
function listDepth(type: GraphQLOutputType): number {
  const inner = isNonNullType(type) ? type.ofType : type;
  return isListType(inner) ? 1 + listDepth(inner.ofType) : 0;
}

/**
 * The list with each item promise's rejection by an Error settled to that Error, `depth` lists
 * deep; anything else as it was (graphql-jit takes an Error as the item's error, as graphql-js).
 * A list without an item promise is handed back as it is, uncopied.
 */
function settled(value: unknown, depth: number): unknown {
  if (!Array.isArray(value)) return value;
  let copy: unknown[] | undefined;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    const next = isPromiseLike(item)
      ? item.then(
          (inner) => (depth > 1 ? settled(inner, depth - 1) : inner),
          (reason) => (reason instanceof Error ? reason : Promise.reject(reason)),
        )
      : depth > 1
        ? settled(item, depth - 1)
        : item;
    if (next !== item) {
      copy ??= [...value];
      copy[index] = next;
    }
  }
  return copy ?? value;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
