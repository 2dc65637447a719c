import { WebSocket } from "ws";
import type { Harness } from "./harness.ts";
import { singleConnection } from "./sse-single-connection-support.ts";
import { LIVE, SUBSCRIPTION } from "./subscriptions-support.ts";
import type { Transport } from "./transports.ts";

// Keyless floods over each transport: the attack test proves they leave nothing reserved, the
// bench (bench/checks/flood-memory.check.ts) measures the memory they leave.

/** What Acme would not want anyone else to read. */
export const SECRETS_QUERY = `{
  organization { name email telephone }
  agent(id: "agt_acme_reception") { id name systemPrompt }
}`;
export const SUBSCRIBE_LIVE = SUBSCRIPTION.trim();

/** Sends `count` requests made by `one`, `width` at a time, and waits for each to settle. */
export async function inWaves(
  count: number,
  width: number,
  one: (index: number) => Promise<unknown>,
) {
  for (let start = 0; start < count; start += width) {
    const wave = Array.from({ length: Math.min(width, count - start) }, (_, i) => one(start + i));
    await Promise.allSettled(wave);
  }
}

/** A keyless graphql-ws socket: sends connection_init without a key, resolves when closed. */
function keylessSocket(harness: Harness): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${harness.url.replace(/^http/, "ws")}/graphql`, [
      "graphql-transport-ws",
    ]);
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: {} })));
    socket.on("error", () => undefined);
    socket.on("close", (code) => resolve(code));
    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
  });
}

/** One keyless request of the flood, as the transport's client would send it. */
export const FLOODS: Record<
  Transport["name"],
  (harness: Harness, index: number) => Promise<unknown>
> = {
  HTTP: (harness) => harness.graphql(SECRETS_QUERY, undefined, { authorization: null }),
  SSE: async (harness) => {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: SUBSCRIBE_LIVE, variables: { id: LIVE } }),
    });
    return response.text();
  },
  "graphql-sse single connection": async (harness, index) => {
    // As the flood that filled memory: keyless PUTs with large chosen tokens, keyless POSTs
    // into a guessed reservation, and keyless PUT+GET pairs that would hold connections.
    const sse = singleConnection(harness.url);
    const chosen = `${index}`.padEnd(12 * 1024, "x");
    await (await sse.put(undefined, chosen)).text();
    await (await sse.post(chosen.slice(0, 43), undefined, SECRETS_QUERY, `${index}`)).text();
    const opened = await sse.open(chosen.slice(0, 43), undefined);
    await opened.text();
  },
  "graphql-ws": (harness) => keylessSocket(harness),
};
