import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { wireAgent } from "../support/wire-agent.ts";
import { sendJson } from "../upstream/recording-upstream.ts";

/**
 * An upstream that holds every response it is told to hold until `size` of them are in flight
 * at once, then answers them all; one held for `maxWaitMs` without the others arriving is
 * answered 500. An operation succeeds against it only if the gateway sent the held requests
 * concurrently.
 */
export interface BarrierUpstream {
  url: string;
  /** "METHOD /path?query" in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startBarrierUpstream(options: {
  size: number;
  maxWaitMs: number;
  held: (path: string) => boolean;
}): Promise<BarrierUpstream> {
  const requests: string[] = [];
  const waiting = new Set<{ answer: () => void; timer: NodeJS.Timeout }>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? url;
    requests.push(`${req.method} ${url}`);
    req.resume();
    const answer = () => sendJson(res, 200, barrierBody(path));
    if (!options.held(path)) {
      answer();
      return;
    }
    const entry = {
      answer,
      timer: setTimeout(() => {
        waiting.delete(entry);
        sendJson(res, 500, {
          error: { code: "INTERNAL_ERROR", message: "The barrier was not met in time." },
        });
      }, options.maxWaitMs),
    };
    waiting.add(entry);
    if (waiting.size >= options.size) {
      for (const held of waiting) {
        clearTimeout(held.timer);
        held.answer();
      }
      waiting.clear();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const held of waiting) clearTimeout(held.timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The agents of the barrier's one conversation page (cnv_b1..cnv_b3, in this order). */
export const BARRIER_AGENT_IDS = ["agt_b1", "agt_b2", "agt_b3"] as const;

/** Minimal bodies: the organization, any agent or document by ID, and one conversation page. */
function barrierBody(path: string): unknown {
  if (path === "/v1/organization") return { id: "org_barrier", name: "Barrier Inc." };
  if (path === "/v1/conversations") {
    const items = BARRIER_AGENT_IDS.map((agentId, index) => ({
      id: `cnv_b${index + 1}`,
      agentId,
      contactId: null,
      status: "SUCCESS",
      direction: "INBOUND",
      channel: "VOICE",
      duration: 60,
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: "2026-01-01T00:01:00.000Z",
    }));
    return { items, total: items.length, limit: 3, offset: 0 };
  }
  const agent = /^\/v1\/agents\/([^/]+)$/.exec(path);
  if (agent?.[1]) return wireAgent(agent[1], `Agent ${agent[1]}`);
  const document = /^\/v1\/documents\/([^/]+)$/.exec(path);
  if (document?.[1]) return { id: document[1], name: `Document ${document[1]}` };
  return {};
}
