import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { runWith } from "../support/session-clients.ts";
import { sessionToken } from "../support/session-token.ts";
import { FAST_PATH, type Harness } from "./harness.ts";
import { APP, startSessionHarness } from "./session-cookie-support.ts";
import { readUntil, singleConnection } from "./sse-single-connection-support.ts";

// Session mode without SESSION_COOKIE: the token rides in `Authorization` alone, and
// POST /graphql/logout ends it as it ends a cookie's (docs/security.md).

const LIVE = "query @live { organization { name } }";
/** runWith's cookie options: never used here, no transport below sends a cookie. */
const CLIENT = { cookie: "unused", origin: APP };

let harness: Harness;
beforeAll(async () => {
  harness = await startSessionHarness({ fastPath: FAST_PATH });
});
afterAll(() => harness.close());

const logout = (headers: Record<string, string>) =>
  fetch(`${harness.url}/graphql/logout`, { method: "POST", headers });

/** The refusal's status, code, requestId and message, as a client reads them. */
async function refusalOf(response: Response) {
  const body = (await response.json()) as {
    errors: Array<{ message: string; extensions: { code: string; requestId: string } }>;
  };
  const [error] = body.errors;
  return {
    status: response.status,
    code: error?.extensions.code,
    requestId: error?.extensions.requestId,
    header: response.headers.get("x-request-id"),
    message: error?.message,
  };
}

function socketWith(token: string) {
  return createClient({
    url: `${harness.url.replace(/^http/, "ws")}/graphql`,
    retryAttempts: 0,
    lazy: true,
    onNonLazyError: () => undefined,
    connectionParams: { Authorization: `Bearer ${token}` },
  });
}

describe("a logout without SESSION_COOKIE", () => {
  it("ends a header-borne session on every transport, its live operations at once", async () => {
    const session = await sessionToken({ subject: "user-header-logout" });
    const other = await sessionToken({ subject: "user-header-staying" });
    const authorization = `Bearer ${session}`;

    // A live query over SSE and one over graphql-ws, both open when the logout comes.
    const sse = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        authorization,
        "content-type": "application/json",
        accept: "text/event-stream",
      },
      body: JSON.stringify({ query: LIVE }),
    });
    expect(sse.status).toBe(200);
    expect((await readUntil(sse, (text) => text.includes("Acme Health"))).ended).toBe(false);
    const sseEnded = readUntil(sse, () => false).then(
      ({ ended }) => ended,
      () => true,
    );
    const socket = socketWith(session);
    let sawFirst: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      sawFirst = resolve;
    });
    const socketEnded = new Promise<unknown>((resolve) => {
      socket.subscribe(
        { query: LIVE },
        {
          next: () => sawFirst(),
          error: (error) => resolve((error as { code?: number }).code),
          complete: () => resolve("complete"),
        },
      );
    });
    await first;

    const answer = await logout({ authorization, origin: APP });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing to clear: no cookie carried the session.
    expect(answer.headers.get("set-cookie")).toBeNull();
    // The page that logged out may read its answer, as it reads yoga's.
    expect(answer.headers.get("access-control-allow-origin")).toBe(APP);
    expect(await answer.text()).toBe("");
    expect(await sseEnded).toBe(true);
    expect(await socketEnded).toBe(4403);
    await socket.dispose();

    // Refused afterwards on HTTP and graphql-ws, by either place in the connection params.
    expect(await runWith(harness.url, session, "authorization", CLIENT)).toEqual({
      status: 401,
      message: "This session has logged out: sign in again.",
    });
    for (const transport of ["socket-params", "socket-header-params"] as const) {
      expect(await runWith(harness.url, session, transport, CLIENT)).toEqual({
        status: 4403,
        message: "UNAUTHENTICATED: this session has logged out",
      });
    }
    // And on SSE: a distinct connection, and a single-connection stream's reservation.
    const again = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: LIVE }),
    });
    expect(await refusalOf(again)).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
    const reserved = await singleConnection(harness.url).put(authorization);
    expect(await refusalOf(reserved)).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
    // A second logout of it changes nothing and says so as the first did.
    expect((await logout({ authorization })).status).toBe(204);

    // Another session of the same organization goes on.
    expect(await runWith(harness.url, other, "authorization", CLIENT)).toEqual({
      status: 200,
      message: undefined,
    });
    expect((await runWith(harness.url, other, "socket-params", CLIENT)).status).toBe(200);
  });

  it("refuses a logout with no token, a token that does not verify, or an API key", async () => {
    const expired = await sessionToken({ subject: "user-expired", expires: 1 });
    const forged = await sessionToken({ subject: "user-forged", secret: "x".repeat(40) });
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /^Send the session to end: `Authorization: Bearer <session token>`\.$/],
      [{ authorization: `Bearer ${expired}` }, /\(ERR_JWT_EXPIRED\)/],
      [{ authorization: `Bearer ${forged}` }, /\(ERR_JWS_SIGNATURE_VERIFICATION_FAILED\)/],
      [{ authorization: `Bearer ${DEMO_KEYS.acme}` }, /^The session token was refused/],
      [{ authorization: "Bearer x" }, /^The session token was refused/],
      // No cookie is read without SESSION_COOKIE, whatever its name.
      [{ cookie: `vg_session=${await sessionToken()}` }, /^Send the session to end/],
    ];
    for (const [headers, message] of cases) {
      const refusal = await refusalOf(await logout(headers));
      expect(refusal).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
      expect(refusal.message).toMatch(message);
      expect(refusal.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(refusal.header).toBe(refusal.requestId);
      // The key never comes back in a refusal.
      expect(JSON.stringify(refusal)).not.toContain(DEMO_KEYS.acme);
    }
    // None of them logged anyone out: a fresh session runs.
    expect(await runWith(harness.url, await sessionToken(), "authorization", CLIENT)).toEqual({
      status: 200,
      message: undefined,
    });
  });
});
