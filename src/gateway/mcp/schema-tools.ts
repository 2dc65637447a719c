import {
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  Kind,
  parse,
  printType,
  validate,
} from "graphql";
import {
  type CallerHeaders,
  type GatewayFetch,
  runOperation,
  type ToolResult,
  toolError,
  toolResult,
} from "./run-operation.ts";

/** The schema tools (MCP_SCHEMA_TOOLS=on): `introspect`, `search`, `validate`, `execute`. */
export interface SchemaTools {
  list(): Array<{ name: string; description: string; inputSchema: { type: "object" } }>;
  /** The tool's answer, or undefined when `name` is none of these tools. */
  call(
    name: string,
    args: Record<string, unknown>,
    caller: CallerHeaders,
    signal: AbortSignal,
  ): Promise<ToolResult> | undefined;
}

/** Most results `search` answers: enough to find a way in, never the whole schema. */
const MAX_SEARCH_RESULTS = 20;
const MAX_DEPTH = 3;

function text(value: string): ToolResult {
  return { content: [{ type: "text", text: value }] };
}

function fieldsOf(
  type: GraphQLNamedType,
): Array<{ name: string; description?: string | null | undefined; type: GraphQLType }> {
  return isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)
    ? Object.values(type.getFields())
    : [];
}

export function createSchemaTools(
  schema: GraphQLSchema,
  gateway: GatewayFetch,
  options: { mutations: boolean; trustedOnly: boolean },
): SchemaTools {
  // Root types an agent may not use stay out of sight: subscriptions always, mutations unless allowed.
  const hidden = new Set(
    [schema.getSubscriptionType(), options.mutations ? undefined : schema.getMutationType()]
      .filter((type) => type != null)
      .map((type) => type.name),
  );
  const visible = Object.values(schema.getTypeMap()).filter(
    (type) => !isIntrospectionType(type) && !hidden.has(type.name),
  );

  const introspect = (args: Record<string, unknown>): ToolResult => {
    const name = String(args.type_name ?? "");
    const depth = Math.min(MAX_DEPTH, Math.max(1, Number(args.depth ?? 1) || 1));
    const start = visible.find((type) => type.name === name);
    if (!start) return toolError("NOT_FOUND", `No type named ${name}.`, undefined);
    const printed = new Map<string, string>();
    let layer: GraphQLNamedType[] = [start];
    for (let level = 0; level < depth && layer.length > 0; level += 1) {
      const next: GraphQLNamedType[] = [];
      for (const type of layer) {
        if (printed.has(type.name)) continue;
        printed.set(type.name, printType(type));
        for (const field of fieldsOf(type)) {
          const reached = getNamedType(field.type);
          if (!hidden.has(reached.name) && !isIntrospectionType(reached)) next.push(reached);
        }
      }
      layer = next;
    }
    return text([...printed.values()].join("\n\n"));
  };

  const search = (args: Record<string, unknown>): ToolResult => {
    const terms = (Array.isArray(args.terms) ? args.terms : [])
      .map((term) => String(term).toLowerCase())
      .filter(Boolean);
    if (terms.length === 0)
      return toolError("BAD_USER_INPUT", "Give at least one term.", undefined);
    const hits: string[] = [];
    const matches = (words: string) => terms.some((term) => words.toLowerCase().includes(term));
    for (const type of visible) {
      if (matches(`${type.name} ${type.description ?? ""}`))
        hits.push(`type ${type.name}: ${type.description ?? ""}`);
      for (const field of fieldsOf(type)) {
        if (matches(`${field.name} ${field.description ?? ""}`)) {
          hits.push(`${type.name}.${field.name}: ${String(field.type)} ${field.description ?? ""}`);
        }
      }
    }
    const shown = hits.slice(0, MAX_SEARCH_RESULTS);
    return text(shown.length > 0 ? shown.join("\n") : "Nothing matches.");
  };

  const check = (args: Record<string, unknown>): ToolResult => {
    try {
      const errors = validate(schema, parse(String(args.operation ?? "")));
      if (errors.length === 0) return text("Operation is valid.");
      return toolError(
        "GRAPHQL_VALIDATION_FAILED",
        errors.map((error) => error.message).join("\n"),
        undefined,
      );
    } catch (error) {
      return toolError("GRAPHQL_PARSE_FAILED", (error as Error).message, undefined);
    }
  };

  const execute = async (
    args: Record<string, unknown>,
    caller: CallerHeaders,
    signal: AbortSignal,
  ): Promise<ToolResult> => {
    if (options.trustedOnly) {
      return toolError(
        "PERSISTED_QUERY_ONLY",
        "Only the trusted documents run here: use their tools.",
        undefined,
      );
    }
    const query = String(args.query ?? "");
    try {
      const writes = parse(query).definitions.some(
        (node) => node.kind === Kind.OPERATION_DEFINITION && node.operation !== "query",
      );
      if (writes && !options.mutations) {
        return toolError(
          "FORBIDDEN",
          "`execute` runs queries only (MCP_MUTATIONS=off).",
          undefined,
        );
      }
    } catch {
      // The gateway answers a document it cannot parse, as it would on /graphql.
    }
    const variables =
      typeof args.variables === "object" &&
      args.variables !== null &&
      !Array.isArray(args.variables)
        ? (args.variables as Record<string, unknown>)
        : {};
    const { body, requestId } = await runOperation(gateway, caller, { query, variables }, signal);
    return toolResult(body, requestId);
  };

  const tools = [
    {
      name: "introspect",
      description:
        "The GraphQL schema's type of this name, in SDL, with the types its fields reach to `depth` levels (1 to 3).",
      inputSchema: {
        type: "object" as const,
        properties: {
          type_name: { type: "string" },
          depth: { type: "integer", minimum: 1, maximum: MAX_DEPTH },
        },
        required: ["type_name"],
        additionalProperties: false,
      },
    },
    {
      name: "search",
      description: `Types and fields whose name or description holds one of the terms (at most ${MAX_SEARCH_RESULTS}).`,
      inputSchema: {
        type: "object" as const,
        properties: { terms: { type: "array", items: { type: "string" }, minItems: 1 } },
        required: ["terms"],
        additionalProperties: false,
      },
    },
    {
      name: "validate",
      description: "Whether a GraphQL operation is valid against the schema, and why not.",
      inputSchema: {
        type: "object" as const,
        properties: { operation: { type: "string" } },
        required: ["operation"],
        additionalProperties: false,
      },
    },
    {
      name: "execute",
      description:
        "Runs a GraphQL query with your key, under every rule of /graphql. Use `search`, `introspect` and `validate` first; never run introspection queries here.",
      inputSchema: {
        type: "object" as const,
        properties: { query: { type: "string" }, variables: { type: "object" } },
        required: ["query"],
        additionalProperties: false,
      },
    },
  ];

  return {
    list: () => tools,
    call(name, args, caller, signal) {
      switch (name) {
        case "introspect":
          return Promise.resolve(introspect(args));
        case "search":
          return Promise.resolve(search(args));
        case "validate":
          return Promise.resolve(check(args));
        case "execute":
          return execute(args, caller, signal);
        default:
          return undefined;
      }
    },
  };
}
