import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { FLEET_STORE } from "../support/fleet-store.ts";
import { runWith } from "../support/session-clients.ts";
import { sessionToken } from "../support/session-token.ts";
import {
  followOverSocket,
  type Instance,
  SESSION_GATEWAY,
  startFleet,
  startInstance,
} from "./fleet-harness.ts";

// Session mode without SESSION_COOKIE in a fleet: a header-borne logout answered by one instance
// holds on the others, and on one started after it.

const closing = closedAfterEachTest();
const LIVE = "query @live { organization { name } }";
/** runWith's cookie options: no transport below sends a cookie. */
const CLIENT = { cookie: "unused", origin: "https://app.example.test" };

/** A live query over graphql-ws: `closed` settles with the socket's close code. */
function openSocket(instance: Instance, session: string) {
  const client = createClient({
    url: `${instance.url.replace(/^http/, "ws")}/graphql`,
    retryAttempts: 0,
    lazy: true,
    onNonLazyError: () => undefined,
    connectionParams: { Authorization: `Bearer ${session}` },
  });
  return followOverSocket(client, LIVE);
}

describe(`a header-borne logout in a fleet (${FLEET_STORE})`, () => {
  it("is refused on every instance, one started after it too, and ends its socket there", async () => {
    const fleet = closing(await startFleet(2, { gateway: SESSION_GATEWAY }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const session = await sessionToken({ subject: "user-header-fleet" });
    const other = await sessionToken({ subject: "user-header-fleet-staying" });
    for (const instance of [a, b]) {
      expect((await runWith(instance.url, session, "authorization", CLIENT)).status).toBe(200);
    }
    const socket = openSocket(b, session);
    await socket.delivered;

    const answer = await fetch(`${a.url}/graphql/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${session}` },
    });
    expect(answer.status).toBe(204);
    expect(await socket.closed).toBe(4403);
    await socket.close();

    const later = await startInstance(fleet.redis, fleet.sandbox.url, SESSION_GATEWAY);
    try {
      for (const instance of [a, b, later]) {
        expect(await runWith(instance.url, session, "authorization", CLIENT)).toEqual({
          status: 401,
          message: "This session has logged out: sign in again.",
        });
        expect((await runWith(instance.url, session, "socket-params", CLIENT)).status).toBe(4403);
        expect((await runWith(instance.url, other, "authorization", CLIENT)).status).toBe(200);
      }
    } finally {
      await later.close();
    }
  });
});
