import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { wireAgent } from "../support/wire-agent.ts";
import { sendJson } from "../upstream/recording-upstream.ts";

/**
 * A small stateful upstream whose reads the test holds: each GET reads the state when it arrives
 * and is answered only when the test releases it (or at once while nothing is held), so a read
 * can be kept in flight across a write, event by event, with no sleeps. Two organizations, keys
 * named per test, agents and the organization writable, any key revocable (401 from then on).
 */
export interface HeldUpstream {
  url: string;
  /** The state now: organization name and agent names, per organization. */
  state: Map<string, { organization: string; agents: Map<string, string> }>;
  /** Requests as "METHOD /path?query", in arrival order. */
  requests: string[];
  /** Each request's bearer token (empty when none), in the order of `requests`. */
  tokens: string[];
  /** Whether GETs are held from now on (true) or answered at once (false). */
  hold(on: boolean): void;
  /** Resolves once `count` GETs are held (those held so far count); fails after `withinMs`. */
  held(count: number, withinMs?: number): Promise<void>;
  /** Answers every held GET (with the state each read when it arrived). */
  release(): void;
  /** Answers one held GET by its index among those held now; returns its request. */
  releaseOne(index: number): string;
  /** Held GETs now, as "METHOD /path". */
  holding(): string[];
  revoke(key: string): void;
  restore(key: string): void;
  close(): Promise<void>;
}

interface Held {
  request: string;
  answer: () => void;
}

export async function startHeldUpstream(options: {
  /** Bearer token → organization ID. */
  keys: Record<string, string>;
  /** Organization ID → its agent IDs (each agent belongs to one organization: IDs are global). */
  agents: Record<string, string[]>;
  /** Tokens that may read but whose writes answer 403. */
  readOnly?: string[];
}): Promise<HeldUpstream> {
  const state = new Map<string, { organization: string; agents: Map<string, string> }>();
  for (const [org, ids] of Object.entries(options.agents)) {
    state.set(org, {
      organization: `${org} v0`,
      agents: new Map(ids.map((id) => [id, `${id} v0`])),
    });
  }
  const revoked = new Set<string>();
  const requests: string[] = [];
  const tokens: string[] = [];
  let holding = false;
  let heldNow: Held[] = [];
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  const notify = () => {
    waiters = waiters.filter((waiter) => {
      if (heldNow.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? url;
    const request = `${req.method} ${url}`;
    requests.push(request);
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    tokens.push(token);
    const org = options.keys[token];
    if (org === undefined || revoked.has(token)) {
      sendJson(res, 401, { error: { code: "UNAUTHORIZED", message: "Invalid API key" } });
      return;
    }
    const own = state.get(org);
    if (!own) throw new Error(`no state for ${org}`);
    const agentId = /^\/v1\/agents\/([^/]+)$/.exec(path)?.[1];
    if (req.method === "PATCH") {
      if (options.readOnly?.includes(token)) {
        sendJson(res, 403, { error: { code: "FORBIDDEN", message: "Read-only key" } });
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
        name?: string;
      };
      if (path === "/v1/organization" && body.name !== undefined) {
        own.organization = body.name;
        sendJson(res, 200, organizationBody(org, own.organization));
        return;
      }
      if (agentId !== undefined && own.agents.has(agentId) && body.name !== undefined) {
        own.agents.set(agentId, body.name);
        sendJson(res, 200, wireAgent(agentId, body.name, { systemPrompt: `prompt of ${agentId}` }));
        return;
      }
      sendJson(res, 404, { error: { code: "NOT_FOUND", message: "Not found" } });
      return;
    }
    // A read takes the state as it arrives: what it answers is what the upstream held then.
    let status = 200;
    let body: unknown;
    if (path === "/v1/organization") body = organizationBody(org, own.organization);
    else if (agentId !== undefined && own.agents.has(agentId)) {
      body = wireAgent(agentId, own.agents.get(agentId) as string, {
        systemPrompt: `prompt of ${agentId}`,
      });
    } else {
      status = 404;
      body = { error: { code: "NOT_FOUND", message: "Not found" } };
    }
    const answer = () => sendJson(res, status, body);
    if (!holding) {
      answer();
      return;
    }
    heldNow.push({ request: `${req.method} ${path}`, answer });
    notify();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    requests,
    tokens,
    hold(on) {
      holding = on;
    },
    held(count, withinMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter.resolve !== done);
          reject(new Error(`${count} reads held: not within ${withinMs} ms (${heldNow.length})`));
        }, withinMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push({ count, resolve: done });
        notify();
      });
    },
    release() {
      const all = heldNow;
      heldNow = [];
      for (const held of all) held.answer();
    },
    releaseOne(index) {
      const [held] = heldNow.splice(index, 1);
      if (!held) throw new Error(`no held request ${index}`);
      held.answer();
      return held.request;
    },
    holding: () => heldNow.map((held) => held.request),
    revoke: (key) => revoked.add(key),
    restore: (key) => revoked.delete(key),
    close: () =>
      new Promise<void>((resolve) => {
        for (const held of heldNow) held.answer();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function organizationBody(org: string, name: string) {
  return { id: org, name };
}
