import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import type { ListenOptions } from "../../src/gateway/transport/server.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET } from "../support/session-token.ts";
import { type Harness, startHarness } from "./harness.ts";

/** The session cookie's name, and the page origin allowed to send it. */
export const COOKIE = "vg_session";
export const APP = "https://app.example.test";

/**
 * A gateway in session mode over a cookie (docs/security.md): Acme's key behind the demo
 * secret, free documents, and the app's origin the one allowed to send the cookie.
 */
export function startCookieSessionHarness(): Promise<Harness> {
  return startSessionHarness({ sessionCookie: { name: COOKIE, origins: [APP] } });
}

/** The same session mode, served as `listen` says (with a cookie, or by header alone). */
export function startSessionHarness(listen: ListenOptions): Promise<Harness> {
  return startHarness({
    gateway: {
      session: {
        verify: createSessionVerifier({ secret: SESSION_SECRET }),
        keys: new Map([["org_acme", DEMO_KEYS.acme]]),
      },
      persistedDocuments: { trustedOnly: false },
      corsOrigins: [APP],
    },
    listen,
  });
}
