import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  type CallerHeaders,
  followSubscription,
  type GatewayFetch,
  type GraphQLBody,
} from "./run-operation.ts";

/** A conversation's live status, as an MCP resource template (RFC 6570). */
export const STATUS_TEMPLATE = {
  uriTemplate: "voicegraph://conversations/{id}/status",
  name: "conversation-status",
  title: "A conversation's live status",
  description:
    "Whether the call has ended, when it started and ended, and how long it has lasted. " +
    "Subscribe to be told each time it changes.",
  mimeType: "application/json",
};

const STATUS_URI = /^voicegraph:\/\/conversations\/([^/?#]{1,128})\/status$/;

/**
 * The figures of the `conversationStatus` subscription alone: one status read per update and no
 * list request, polled by the gateway's live hub, one poller per key and conversation. One line,
 * so a trusted-documents manifest can hold it as is (docs/mcp.md).
 */
export const FOLLOW_STATUS =
  "subscription McpConversationStatus($id: ID!) { conversationStatus(id: $id) { ended startedAt endedAt duration } }";

/** The conversation ID a status URI names; a URI of no resource is a JSON-RPC error. */
export function conversationOf(uri: string): string {
  const id = STATUS_URI.exec(uri)?.[1];
  if (id === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `No resource at ${uri}: ${STATUS_TEMPLATE.uriTemplate}`,
    );
  }
  return decodeURIComponent(id);
}

/** The status now, read with the reader's own credential: the subscription's first answer. */
export async function readStatus(
  gateway: GatewayFetch,
  caller: CallerHeaders,
  uri: string,
): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> }> {
  const id = conversationOf(uri);
  const stop = new AbortController();
  let first: GraphQLBody | undefined;
  await followSubscription(
    gateway,
    caller,
    { query: FOLLOW_STATUS, variables: { id } },
    stop.signal,
    (payload) => {
      first ??= payload;
      stop.abort();
    },
  );
  const answer = first ?? { errors: [{ message: "The status stream ended with no answer." }] };
  const error = answer.errors?.[0];
  if (error) {
    const code = error.extensions?.code;
    throw new McpError(
      ErrorCode.InvalidParams,
      `${typeof code === "string" ? `${code}: ` : ""}${error.message}`,
      {
        code,
        requestId: error.extensions?.requestId,
      },
    );
  }
  const status = (answer.data as { conversationStatus?: unknown } | undefined)?.conversationStatus;
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(status) }] };
}

/**
 * Follows a status for a subscriber until `signal` aborts or the call ends: `changed` is told on
 * each update after the first (the first is the state the subscriber can read).
 */
export function watchStatus(
  gateway: GatewayFetch,
  caller: CallerHeaders,
  uri: string,
  signal: AbortSignal,
  changed: () => void,
): Promise<void> {
  const id = conversationOf(uri);
  let seen = 0;
  return followSubscription(
    gateway,
    caller,
    { query: FOLLOW_STATUS, variables: { id } },
    signal,
    () => {
      seen += 1;
      if (seen > 1) changed();
    },
  );
}
