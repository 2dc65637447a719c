import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Catalogue } from "./catalogue.ts";
import type { JsonSchema } from "./json-schemas.ts";
import {
  isOperationUri,
  OPERATION_TEMPLATE,
  operationOf,
  readOperation,
  watchOperation,
} from "./operation-resource.ts";
import {
  type CallerHeaders,
  type GatewayFetch,
  runOperation,
  toolError,
  toolResult,
} from "./run-operation.ts";
import type { SchemaTools } from "./schema-tools.ts";
import { conversationOf, readStatus, STATUS_TEMPLATE, watchStatus } from "./status-resource.ts";

/** What one MCP session serves with; the gateway and the tools are shared, the rest its own. */
export interface SessionParts {
  gateway: GatewayFetch;
  catalogue: Catalogue;
  schemaTools: SchemaTools | undefined;
  /** A compiled input schema (compiled once, shared by every session). */
  validatorOf(schema: JsonSchema): JsonSchemaValidator<unknown>;
  version: string;
}

/** The protocol version from which tools carry `outputSchema` and results `structuredContent`. */
const STRUCTURED_FROM = "2025-06-18";

/**
 * One session's SDK server: never shared between callers. Its status watchers are its own abort
 * controllers; the pollers they feed are the gateway's live hub's.
 */
export function createSessionServer(
  parts: SessionParts,
  session: {
    /** The credential the session was opened with (the endpoint refuses any other). */
    authorization: string;
    protocolVersion: string;
  },
): { server: Server; watching(): boolean; close(): void } {
  const server = new Server(
    { name: "voicegraph", version: parts.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: false },
      },
    },
  );
  const structured = session.protocolVersion >= STRUCTURED_FROM;
  const watchers = new Map<string, AbortController>();
  const caller = (requestId: string | string[] | undefined): CallerHeaders => ({
    authorization: session.authorization,
    requestId: typeof requestId === "string" ? requestId : undefined,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...parts.catalogue.tools().map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as { type: "object" },
        ...(structured ? { outputSchema: tool.outputSchema as { type: "object" } } : {}),
        annotations: tool.annotations,
      })),
      ...(parts.schemaTools?.list() ?? []),
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const headers = caller(extra.requestInfo?.headers["x-request-id"]);
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = parts.catalogue.tool(name);
    const inputSchema =
      tool?.inputSchema ??
      parts.schemaTools?.list().find((each) => each.name === name)?.inputSchema;
    if (inputSchema === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // Arguments the input schema refuses run nothing.
    const checked = parts.validatorOf(inputSchema)(args);
    if (!checked.valid) {
      return toolError(
        "BAD_USER_INPUT",
        `Arguments of ${name}: ${checked.errorMessage}`,
        undefined,
      );
    }
    if (tool === undefined) {
      return (
        (await parts.schemaTools?.call(name, args, headers, extra.signal)) ??
        toolError("BAD_USER_INPUT", `Unknown tool: ${name}`, undefined)
      );
    }
    const { body, requestId } = await runOperation(
      parts.gateway,
      headers,
      { query: tool.document, operationName: tool.operationName, variables: args },
      extra.signal,
    );
    const result = toolResult(body, requestId);
    if (!structured && !result.isError) delete result.structuredContent;
    return result;
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [STATUS_TEMPLATE, OPERATION_TEMPLATE],
  }));
  const named = (uri: string) => operationOf(uri, parts.catalogue, parts.validatorOf);
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => {
    const { uri } = request.params;
    const headers = caller(extra.requestInfo?.headers["x-request-id"]);
    return isOperationUri(uri)
      ? readOperation(parts.gateway, headers, uri, named(uri))
      : readStatus(parts.gateway, headers, uri);
  });
  server.setRequestHandler(SubscribeRequestSchema, (request, extra) => {
    const { uri } = request.params;
    // A URI of no resource is refused before anything is followed.
    const operation = isOperationUri(uri) ? named(uri) : undefined;
    if (!operation) conversationOf(uri);
    if (watchers.has(uri)) return {};
    const stop = new AbortController();
    watchers.set(uri, stop);
    const headers = caller(extra.requestInfo?.headers["x-request-id"]);
    // A notice to a session that has closed meanwhile has no one to reach: nothing to report.
    const changed = () => void server.sendResourceUpdated({ uri }).catch(() => undefined);
    void (
      operation
        ? watchOperation(parts.gateway, headers, operation, stop.signal, changed)
        : watchStatus(parts.gateway, headers, uri, stop.signal, changed)
    )
      // A watch that ended in an error stops sending updates; the subscriber's next read
      // answers that error with its code (resources/read runs the operation again).
      .catch(() => undefined)
      .finally(() => {
        if (watchers.get(uri) === stop) watchers.delete(uri);
      });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    watchers.get(request.params.uri)?.abort();
    watchers.delete(request.params.uri);
    return {};
  });

  const unlisten = parts.catalogue.onChange(() => {
    // As above: a session closed meanwhile has no one to tell.
    void server.sendToolListChanged().catch(() => undefined);
  });
  return {
    server,
    watching: () => watchers.size > 0,
    close() {
      unlisten();
      for (const stop of watchers.values()) stop.abort();
      watchers.clear();
    },
  };
}
