import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gatewayError } from "../../errors.ts";
import type { FleetLogouts } from "../../fleet/logouts.ts";
import { bearerToken } from "../../upstream/authorization.ts";
import { sessionIdentity } from "../session/session-identity.ts";
import { writeRefusal } from "../shared/http-status.ts";
import { authorizationOfParams } from "./connection-refusal.ts";

/** Session mode over a cookie (SESSION_COOKIE): where the browser's session token travels. */
export interface SessionCookieOptions {
  /** The cookie the frontend's sign-in sets (`HttpOnly; Secure; SameSite`), holding the token. */
  name: string;
  /** Origins whose pages may use it besides the gateway's own (CORS_ORIGINS; `*` adds none). */
  origins: readonly string[];
}

/**
 * The header a cookie-carrying request must send: no page of another site can add it without a
 * CORS preflight, which only the listed origins pass. Apollo Client's own name is accepted too.
 */
export const CSRF_HEADERS = ["x-graphql-csrf", "apollo-require-preflight"] as const;

/**
 * Where a session ends, whether its token rides in the cookie or in `Authorization`: the token is
 * refused from then on, everywhere.
 */
export const LOGOUT_PATH = "/graphql/logout";

/** Something a session's token holds open: a stream's response, a socket. */
type Closer = () => void;

/**
 * Session mode's admission on node:http before yoga: logouts, and the cookie when there is one.
 * With SESSION_COOKIE, a request or a graphql-ws upgrade that carries the cookie and no
 * `Authorization` is admitted as if it sent `Authorization: Bearer <cookie>`, once it passes the
 * CSRF checks (its origin, the header above); without it, only `Authorization` is read. Every rule
 * of session mode then applies unchanged downstream. A logout refuses the token until it expires
 * and closes whatever it holds open, so its live operations end on every transport. In a fleet it
 * does so on every instance (fleet/logouts.ts); this instance's own map holds while Redis is away.
 */
export function createSessionAdmission(
  /** SESSION_COOKIE's settings; absent, the session token rides in `Authorization` alone. */
  options: SessionCookieOptions | undefined,
  /** Why the token is refused (undefined: it verifies), as the gateway's session mode judges it. */
  refusalOf: (authorization: string) => Promise<string | undefined>,
  /** The fleet's logouts (REDIS_URL); absent, a logout is this instance's alone. */
  fleet: FleetLogouts | undefined,
  /** The gateway's CORS_ORIGINS: without the cookie, who may read what is answered here. */
  corsOrigins: readonly string[],
) {
  const listed = (options?.origins ?? []).filter((origin) => origin !== "*");
  // As yoga's CORS answers (cors.ts): no credentials, never the `null` origin.
  const readable = (origin: string) =>
    origin !== "null" && (corsOrigins.includes("*") || corsOrigins.includes(origin));
  /** A logged-out session's identity (sessionIdentity) → when its token expires anyway (ms). */
  const loggedOut = new Map<string, number>();
  const open = new Map<string, Set<Closer>>();

  const allowedOrigin = (origin: string | undefined, host: string | undefined) => {
    if (origin === undefined) return true;
    if (listed.includes(origin)) return true;
    return URL.canParse(origin) && new URL(origin).host === host;
  };

  function hold(hash: string, closer: Closer): () => void {
    let held = open.get(hash);
    if (held === undefined) {
      held = new Set();
      open.set(hash, held);
    }
    held.add(closer);
    return () => {
      held.delete(closer);
      if (held.size === 0 && open.get(hash) === held) open.delete(hash);
    };
  }

  /**
   * Watches `target` close from now on, and returns how to hold it open under a token's hash:
   * listened for before the fleet is asked, so one that closed meanwhile is never held.
   */
  function holdUntilClosed(target: { once(event: "close", f: () => void): unknown }) {
    let release: (() => void) | undefined;
    let closed = false;
    target.once("close", () => {
      closed = true;
      release?.();
    });
    return (hash: string, closer: Closer) => {
      if (!closed) release = hold(hash, closer);
    };
  }

  function isLoggedOut(hash: string): boolean {
    const until = loggedOut.get(hash);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    loggedOut.delete(hash);
    return false;
  }

  /** Refuses the token's hash until `untilMs`, and closes whatever it holds open here. */
  function logOut(hash: string, untilMs: number): void {
    // Remembered until the token would expire anyway: the map holds no token past its use.
    for (const [known, until] of loggedOut) if (until <= Date.now()) loggedOut.delete(known);
    loggedOut.set(hash, Math.max(untilMs, loggedOut.get(hash) ?? 0));
    const held = open.get(hash);
    open.delete(hash);
    for (const close of [...(held ?? [])]) close();
  }

  /**
   * Whether the token's session has logged out: here, or on another instance of the fleet that
   * this one has not heard from (it started later, or its subscription was down).
   */
  async function loggedOutAnywhere(hash: string): Promise<boolean> {
    if (isLoggedOut(hash)) return true;
    if (fleet === undefined) return false;
    const until = await fleet.find(hash);
    if (until !== undefined && until > Date.now()) logOut(hash, until);
    // Also true when the logout was heard while Redis was asked.
    return isLoggedOut(hash);
  }

  if (fleet) {
    fleet.onLogout(logOut);
    fleet.onResume(() => {
      // Redis may have come back without its data: the logouts held here go back into it.
      void fleet.writeBack(loggedOut);
      // What this instance holds open of a session that logged out while it was not listening.
      for (const hash of open.keys()) {
        void fleet.find(hash).then((until) => {
          if (until !== undefined && until > Date.now()) logOut(hash, until);
        });
      }
    });
  }

  /** The `Authorization` the request runs with, and whether it came in the cookie; or a refusal. */
  function credentialOf(
    req: IncomingMessage,
  ): { authorization: string; cookie: boolean } | string | undefined {
    const header = req.headers.authorization;
    if (header !== undefined && header.trim() !== "")
      return { authorization: header, cookie: false };
    if (options === undefined) return undefined;
    const token = cookieValue(req.headers.cookie, options.name);
    if (token === undefined) return undefined;
    const origin = req.headers.origin;
    if (!allowedOrigin(origin, req.headers.host)) {
      return `A page of ${origin} may not use this gateway's session cookie.`;
    }
    if (!CSRF_HEADERS.some((name) => (req.headers[name] ?? "") !== "")) {
      return `A request carrying the session cookie must send the header \`${CSRF_HEADERS[0]}: 1\` (CSRF protection).`;
    }
    return { authorization: `Bearer ${token}`, cookie: true };
  }

  return {
    /**
     * Admits an HTTP request, true when it goes on to yoga (its cookie turned into
     * `Authorization`), false when answered here: a CSRF refusal, a logged-out token, a logout.
     */
    async admit(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      const origin = req.headers.origin;
      // Browsers send credentials cross-origin only where the answer allows them.
      if (origin !== undefined && listed.includes(origin)) {
        res.setHeader("access-control-allow-credentials", "true");
        // Answered here (a refusal, a logout), the page may read it too; yoga's CORS says the same.
        res.setHeader("access-control-allow-origin", origin);
        res.setHeader("vary", "Origin");
      } else if (options === undefined && origin !== undefined && readable(origin)) {
        // A page's header-borne logout or refusal is its to read, as yoga's answers are.
        res.setHeader("access-control-allow-origin", origin);
        res.setHeader("vary", "Origin");
      }
      const url = new URL(req.url ?? "/", "http://localhost");
      // The cookie rides on every request to this site: only operations read it. A page, a
      // preflight, /healthz and /metrics go on without it, so no CSRF check can refuse them.
      if (!isOperation(req, url)) return true;
      const path = url.pathname;
      const credential = credentialOf(req);
      if (typeof credential === "string") return refuse(res, "FORBIDDEN", credential);
      if (path === LOGOUT_PATH && req.method === "POST") {
        await logout(credential, res);
        return false;
      }
      const hash = credential && sessionIdentity(credential.authorization);
      // Not a Bearer token: session mode refuses it downstream, before anything runs.
      if (credential === undefined || hash === undefined) return true;
      const holdOpen = holdUntilClosed(res);
      if (await loggedOutAnywhere(hash)) {
        return refuse(res, "UNAUTHENTICATED", "This session has logged out: sign in again.");
      }
      if (credential.cookie) req.headers.authorization = credential.authorization;
      // Streams (SSE) and operations in flight end when their session logs out.
      holdOpen(hash, () => res.destroy());
      return true;
    },

    /** Why `authorization`'s session is refused as logged out (for /mcp), or undefined. */
    async loggedOutRefusal(authorization: string): Promise<string | undefined> {
      const hash = sessionIdentity(authorization);
      if (hash === undefined || !(await loggedOutAnywhere(hash))) return undefined;
      return "This session has logged out: sign in again.";
    },

    /**
     * The connection params a graphql-ws socket runs with (the cookie's token added when it sent
     * none), or why it is refused: another origin's socket, a logged-out token.
     */
    async admitSocket(
      upgrade: IncomingMessage,
      params: unknown,
      socket: {
        close(code: number, reason: string): void;
        once(event: "close", f: () => void): unknown;
      },
    ): Promise<{ params: unknown } | { refusal: string }> {
      const given = params !== null && typeof params === "object" ? params : {};
      let authorization = authorizationOfParams(params);
      let admitted = params;
      if (authorization === undefined) {
        if (options === undefined) return { params };
        const cookie = cookieValue(upgrade.headers.cookie, options.name);
        if (cookie === undefined) return { params };
        if (!allowedOrigin(upgrade.headers.origin, upgrade.headers.host)) {
          return {
            refusal: `FORBIDDEN: a page of ${upgrade.headers.origin} may not use this cookie`,
          };
        }
        authorization = `Bearer ${cookie}`;
        admitted = { ...given, Authorization: authorization };
      }
      const hash = sessionIdentity(authorization);
      if (hash === undefined) return { params: admitted };
      const holdOpen = holdUntilClosed(socket);
      if (await loggedOutAnywhere(hash)) {
        return { refusal: "UNAUTHENTICATED: this session has logged out" };
      }
      holdOpen(hash, () => socket.close(4403, "UNAUTHENTICATED: logged out"));
      return { params: admitted };
    },
  };

  async function logout(
    credential: { authorization: string; cookie: boolean } | undefined,
    res: ServerResponse,
  ): Promise<void> {
    const refusal =
      credential === undefined
        ? `Send the session to end: ${options ? "its cookie, or " : ""}\`Authorization: Bearer <session token>\`.`
        : await refusalOf(credential.authorization);
    if (credential === undefined || refusal !== undefined) {
      refuse(res, "UNAUTHENTICATED", refusal ?? "");
      return;
    }
    // Verified just above, so it has a Bearer token and an identity.
    const hash = sessionIdentity(credential.authorization) as string;
    const untilMs = expiryOf(bearerToken(credential.authorization) ?? "");
    logOut(hash, untilMs);
    // Answered once Redis has it, so no instance admits the token after the page is told; with
    // Redis away, it is sent when Redis returns.
    await fleet?.record(hash, untilMs);
    res.writeHead(204, {
      ...(options && {
        "set-cookie": `${options.name}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict`,
      }),
      "x-request-id": randomUUID(),
    });
    res.end();
  }
}

/** A request that runs or ends GraphQL operations: not a browser's page, not a preflight. */
function isOperation(req: IncomingMessage, url: URL): boolean {
  if (url.pathname !== "/graphql" && !url.pathname.startsWith("/graphql/")) return false;
  if (req.method === "OPTIONS") return false;
  const page =
    req.method === "GET" &&
    !url.searchParams.has("query") &&
    (req.headers.accept ?? "").includes("text/html");
  return !page;
}

function refuse(res: ServerResponse, code: "FORBIDDEN" | "UNAUTHENTICATED", message: string) {
  writeRefusal(res, gatewayError(code, message));
  return false;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) {
      const value = decodeURIComponent(pair.slice(at + 1).trim());
      return value === "" ? undefined : value;
    }
  }
  return undefined;
}

/** When a verified token expires (its `exp`), so a logged-out one is remembered only that long. */
function expiryOf(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    if (typeof payload.exp === "number") return payload.exp * 1000 + 5 * 60_000;
  } catch {
    // A token that verified has a readable payload; keep it a day otherwise.
  }
  return Date.now() + 86_400_000;
}
