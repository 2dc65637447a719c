import type { IncomingMessage, ServerResponse } from "node:http";
import { sendNodeResponse } from "@whatwg-node/server";

/**
 * The one file that reaches into @whatwg-node/server, yoga's server adapter (pinned in
 * package.json to the version below): the fast path writes yoga's Response to node:http as the
 * adapter writes it. test/gateway/whatwg-node-adapter.test.ts fails, naming this adapter, when
 * an upgrade moves it.
 */
export const WHATWG_NODE_ADAPTER = {
  name: "whatwg-node-adapter",
  writtenAgainst: "0.11.0",
} as const;

/** Writes a Fetch Response to node:http as yoga's node:http listener writes it. */
export function writeNodeResponse(
  response: Response,
  res: ServerResponse,
  req: IncomingMessage,
): Promise<void> | void {
  // The adapter's own listener writes the head once, with every header (`__useSingleWriteHead`).
  return sendNodeResponse(response, res, req, true);
}
