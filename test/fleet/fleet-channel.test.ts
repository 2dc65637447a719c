import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { FLEET_STORE } from "../support/fleet-store.ts";
import { sessionToken } from "../support/session-token.ts";
import {
  type Instance,
  PREFIX,
  SESSION_APP,
  SESSION_COOKIE,
  SESSION_GATEWAY,
  SESSION_LISTEN,
  startFleet,
} from "./fleet-harness.ts";

// Every fleet-wide channel of an instance shares its one subscriber connection.

const closing = closedAfterEachTest();

/** A live query over SSE, its first event read: the instance then listens to its poller. */
async function openLiveQuery(instance: Instance, authorization: string) {
  const response = await fetch(`${instance.url}/graphql`, {
    method: "POST",
    headers: {
      authorization,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: JSON.stringify({ query: "query @live { organization { name } }" }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  return { close: () => reader.cancel().catch(() => undefined) };
}

/** CLIENT LIST's lines, of every server (a cluster's masters), of connections in pub/sub. */
async function subscriberLines(lists: unknown[]): Promise<string[]> {
  return lists
    .flatMap((list) => String(list).split("\n"))
    .filter((line) => /\bsub=[1-9]/.test(line) || /\bflags=\S*P/.test(line));
}

describe(`an instance's channels (${FLEET_STORE})`, () => {
  it("share one subscriber connection, with every feature that listens on", async () => {
    const fleet = closing(
      await startFleet(1, { gateway: SESSION_GATEWAY, listen: SESSION_LISTEN }),
    );
    const [a] = fleet.instances as [Instance];
    const channelsHeard = async () =>
      (await fleet.redis.onEachServer("pubsub", "channels", `${PREFIX}*`))
        .flatMap((names) => names as string[])
        .sort();
    // A key the upstream accepted lately: its live query then shares a poller with the fleet.
    const reader = `Bearer ${await sessionToken({ subject: "user-reading-live" })}`;
    expect((await a.graphql("{ organization { name } }", { authorization: reader })).status).toBe(
      200,
    );
    const live = await openLiveQuery(a, reader);
    try {
      // A logout, so the session logouts' channel is open too.
      const session = await sessionToken({ subject: "user-counting-connections" });
      const answer = await fetch(`${a.url}/graphql/logout`, {
        method: "POST",
        headers: {
          cookie: `${SESSION_COOKIE}=${session}`,
          origin: SESSION_APP,
          "x-graphql-csrf": "1",
        },
      });
      expect(answer.status).toBe(204);
      // 429 blocks, reads' flights, writes, logouts and the live query's poller: one connection
      // holds them all.
      const expected = [
        `${PREFIX}flights`,
        `${PREFIX}limits`,
        `${PREFIX}logouts`,
        `${PREFIX}poll:`,
        `${PREFIX}writes`,
      ];
      const until = Date.now() + 5_000;
      while ((await channelsHeard()).length < expected.length && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await channelsHeard()).map((name) => name.replace(/poll:.*/, "poll:"))).toEqual(
        expected,
      );
      const lines = await subscriberLines(await fleet.redis.onEachServer("client", "list"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/\bsub=5\b/);
    } finally {
      await live.close();
    }
  });
});
