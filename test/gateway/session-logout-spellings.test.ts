import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWith, TOKEN_TRANSPORTS } from "../support/session-clients.ts";
import { sessionToken, tokenSpellings } from "../support/session-token.ts";
import type { Harness } from "./harness.ts";
import { APP, COOKIE, startCookieSessionHarness } from "./session-cookie-support.ts";

// A logout ends the session the verifier accepted: every spelling of its token it accepts.

const CLIENT = { cookie: COOKIE, origin: APP };

let harness: Harness;
beforeAll(async () => {
  harness = await startCookieSessionHarness();
});
afterAll(() => harness.close());

async function logout(token: string, by: "cookie" | "authorization") {
  const response = await fetch(`${harness.url}/graphql/logout`, {
    method: "POST",
    headers:
      by === "cookie"
        ? { cookie: `${COOKIE}=${token}`, origin: APP, "x-graphql-csrf": "1" }
        : { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  return response.status;
}

describe("a logout and the spellings of its token", () => {
  it("refuses every spelling the verifier accepts, by cookie, Authorization and graphql-ws", async () => {
    const session = await sessionToken({ subject: "user-respelling" });
    const spellings = tokenSpellings(session);
    // The verifier's slack: four last characters, each with and without padding.
    expect(spellings).toHaveLength(8);
    for (const spelling of spellings) {
      expect(await runWith(harness.url, spelling, "authorization", CLIENT)).toEqual({
        status: 200,
        message: undefined,
      });
    }
    // Logged out under one spelling, by either carrier.
    const [first] = spellings.filter((spelling) => spelling !== session);
    expect(await logout(first as string, "authorization")).toBe(204);

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...spellings),
        fc.constantFrom(...TOKEN_TRANSPORTS),
        async (spelling, transport) => {
          const answer = await runWith(harness.url, spelling, transport, CLIENT);
          if (transport.startsWith("socket")) {
            expect(answer).toEqual({
              status: 4403,
              message: "UNAUTHENTICATED: this session has logged out",
            });
          } else {
            expect(answer).toEqual({
              status: 401,
              message: "This session has logged out: sign in again.",
            });
          }
        },
      ),
      { numRuns: 60 },
    );
    // Another session goes on.
    const other = await sessionToken({ subject: "user-staying" });
    for (const transport of TOKEN_TRANSPORTS) {
      expect((await runWith(harness.url, other, transport, CLIENT)).status).toBe(200);
    }
  });

  it("ends the session from its cookie under a spelling other than the one it was given", async () => {
    const session = await sessionToken({ subject: "user-respelling-cookie" });
    const spellings = tokenSpellings(session);
    expect(await logout(spellings.at(-1) as string, "cookie")).toBe(204);
    for (const spelling of spellings) {
      for (const transport of TOKEN_TRANSPORTS) {
        const answer = await runWith(harness.url, spelling, transport, CLIENT);
        expect([transport, answer.status]).toEqual([
          transport,
          transport.startsWith("socket") ? 4403 : 401,
        ]);
      }
    }
  });
});
