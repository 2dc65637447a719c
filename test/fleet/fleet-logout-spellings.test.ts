import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GatewayOptions } from "../../src/gateway/create-gateway.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import type { ListenOptions } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { FLEET_STORE } from "../support/fleet-store.ts";
import { runWith, TOKEN_TRANSPORTS } from "../support/session-clients.ts";
import { SESSION_SECRET, sessionToken, tokenSpellings } from "../support/session-token.ts";
import { type Instance, startFleet, startInstance } from "./fleet-harness.ts";

// A logout answered by one instance ends the session on every one, whatever spelling of its token
// the verifier is then shown.

const closing = closedAfterEachTest();
const COOKIE = "vg_session";
const APP = "https://app.example.test";
const CLIENT = { cookie: COOKIE, origin: APP };
const GATEWAY: Partial<GatewayOptions> = {
  session: {
    verify: createSessionVerifier({ secret: SESSION_SECRET }),
    keys: new Map([["org_acme", DEMO_KEYS.acme]]),
  },
  corsOrigins: [APP],
};
const LISTEN: ListenOptions = { sessionCookie: { name: COOKIE, origins: [APP] } };

describe(`a logout and the spellings of its token in a fleet (${FLEET_STORE})`, () => {
  it("refuses every spelling on every instance, one started after it too", async () => {
    const fleet = closing(await startFleet(2, { gateway: GATEWAY, listen: LISTEN }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const session = await sessionToken({ subject: "user-respelling-in-a-fleet" });
    const spellings = tokenSpellings(session);
    expect(spellings).toHaveLength(8);
    for (const spelling of spellings) {
      expect((await runWith(b.url, spelling, "authorization", CLIENT)).status).toBe(200);
    }
    const logout = await fetch(`${a.url}/graphql/logout`, {
      method: "POST",
      headers: { cookie: `${COOKIE}=${spellings[1]}`, origin: APP, "x-graphql-csrf": "1" },
    });
    expect(logout.status).toBe(204);
    const late = closing(await startInstance(fleet.redis, fleet.sandbox.url, GATEWAY, LISTEN));

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(a, b, late),
        fc.constantFrom(...spellings),
        fc.constantFrom(...TOKEN_TRANSPORTS),
        async (instance, spelling, transport) => {
          const answer = await runWith(instance.url, spelling, transport, CLIENT);
          expect(answer.status).toBe(transport.startsWith("socket") ? 4403 : 401);
          expect(answer.message).toMatch(/logged out/);
        },
      ),
      { numRuns: 60 },
    );
    const other = await sessionToken({ subject: "user-staying" });
    for (const instance of [a, b, late]) {
      expect((await runWith(instance.url, other, "cookie", CLIENT)).status).toBe(200);
    }
  });
});
