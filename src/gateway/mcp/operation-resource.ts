import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { type DocumentNode, Kind, parse, print } from "graphql";
import type { Catalogue } from "./catalogue.ts";
import type { JsonSchema } from "./json-schemas.ts";
import type { OperationTool } from "./operation-tools.ts";
import {
  type CallerHeaders,
  followSubscription,
  type GatewayFetch,
  runOperation,
  toolResult,
} from "./run-operation.ts";

/** A read-only tool's answer as a resource: the tool's name, its arguments as URL-encoded JSON. */
export const OPERATION_TEMPLATE = {
  uriTemplate: "voicegraph://operations/{name}{?arguments}",
  name: "operation-answer",
  title: "A read-only tool's answer",
  description:
    "The answer of a read-only tool (`name`) to its `arguments` (JSON, URL-encoded; none: {}). " +
    "Subscribe to be told each time it changes (an @live query of the gateway).",
  mimeType: "application/json",
};

const OPERATION_URI = /^voicegraph:\/\/operations\/([A-Za-z0-9_]{1,128})(?:\?arguments=([^&#]*))?$/;

interface Named {
  tool: OperationTool;
  args: Record<string, unknown>;
}

/** Whether the URI is one of this template's. */
export function isOperationUri(uri: string): boolean {
  return uri.startsWith("voicegraph://operations/");
}

/** The read-only tool and checked arguments a URI names; anything else is a JSON-RPC error. */
export function operationOf(
  uri: string,
  catalogue: Catalogue,
  validatorOf: (schema: JsonSchema) => JsonSchemaValidator<unknown>,
): Named {
  const match = OPERATION_URI.exec(uri);
  const tool = match ? catalogue.tool(match[1] as string) : undefined;
  if (!match || !tool?.annotations.readOnlyHint) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `No resource at ${uri}: ${OPERATION_TEMPLATE.uriTemplate}, a read-only tool's name`,
    );
  }
  let args: unknown = {};
  try {
    if (match[2] !== undefined) args = JSON.parse(decodeURIComponent(match[2]));
  } catch {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The arguments of ${uri} are not URL-encoded JSON.`,
    );
  }
  const checked = validatorOf(tool.inputSchema)(args);
  if (!checked.valid) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Arguments of ${tool.name}: ${checked.errorMessage}`,
    );
  }
  return { tool, args: args as Record<string, unknown> };
}

/** The tool's answer now, with the reader's own credential. */
export async function readOperation(
  gateway: GatewayFetch,
  caller: CallerHeaders,
  uri: string,
  named: Named,
) {
  const { tool, args } = named;
  const { body, requestId } = await runOperation(gateway, caller, {
    query: tool.document,
    operationName: tool.operationName,
    variables: args,
  });
  const result = toolResult(body, requestId);
  if (result.isError) {
    const { code, message } = result.structuredContent as { code: string; message: string };
    throw new McpError(ErrorCode.InvalidParams, `${code}: ${message}`, result.structuredContent);
  }
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(body.data) }] };
}

/** The document with `@live` on the named operation: the gateway keeps its answer current. */
function liveDocument(tool: OperationTool): string {
  const document = parse(tool.document);
  const live: DocumentNode = {
    ...document,
    definitions: document.definitions.map((node) =>
      node.kind === Kind.OPERATION_DEFINITION && node.name?.value === tool.operationName
        ? {
            ...node,
            directives: [
              ...(node.directives ?? []),
              { kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: "live" } },
            ],
          }
        : node,
    ),
  };
  return print(live);
}

/** Follows the answer as an @live query until `signal` aborts: `changed` after each new answer. */
export function watchOperation(
  gateway: GatewayFetch,
  caller: CallerHeaders,
  named: Named,
  signal: AbortSignal,
  changed: () => void,
): Promise<void> {
  let seen = 0;
  return followSubscription(
    gateway,
    caller,
    {
      query: liveDocument(named.tool),
      operationName: named.tool.operationName,
      variables: named.args,
    },
    signal,
    () => {
      seen += 1;
      if (seen > 1) changed();
    },
  );
}
