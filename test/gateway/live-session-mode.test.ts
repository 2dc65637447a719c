import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import { ACME } from "./harness.ts";
import { followWs } from "./live-support.ts";
import { start, wsClient } from "./subscriptions-support.ts";

// Session mode's rules hold for live queries: trusted documents only, and every pushed result
// redacted as a query's answer is.

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const LIVE_ORG = "query LiveOrg @live { organization { id name } }";
const UNTRUSTED = "query Other @live { organization { id city } }";

const token = (subject: string) => sessionToken({ subject });

describe.concurrent("live queries in session mode", () => {
  async function startSessionHarness(onTestFinished: Parameters<typeof start>[0]) {
    return start(
      onTestFinished,
      {},
      {
        session: {
          verify: createSessionVerifier({ secret: SESSION_SECRET }),
          keys: new Map([["org_acme", DEMO_KEYS.acme]]),
        },
        persistedDocuments: { manifest: { [sha256(LIVE_ORG)]: LIVE_ORG }, trustedOnly: true },
      },
    );
  }

  it("refuses a live query outside the trusted documents, with no upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await startSessionHarness(onTestFinished);
    const client = wsClient(harness, `Bearer ${await token("attacker")}`);
    onTestFinished(() => client.dispose() as Promise<void>);
    harness.takeUpstreamRequests();
    const live = followWs(client, UNTRUSTED, {});
    // graphql-ws hands a refusal to its client as the operation's errors.
    const errors = (await live.ended.then(
      () => live.results[0]?.errors ?? [],
      (refusal: unknown) => refusal,
    )) as Array<{ extensions?: { code?: unknown } }>;
    expect(errors.map((error) => error.extensions?.code)).toEqual(["PERSISTED_QUERY_ONLY"]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });

  it("redacts the key in every pushed result", async ({ onTestFinished }) => {
    const harness = await startSessionHarness(onTestFinished);
    const client = wsClient(harness, `Bearer ${await token("dashboard")}`);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_ORG, {});
    await live.count(1);
    // Another system names the organization after its key, on the upstream itself.
    const renamed = await fetch(`${harness.sandbox.url}/v1/organization`, {
      method: "PATCH",
      headers: { authorization: ACME, "content-type": "application/json" },
      body: JSON.stringify({ name: `Acme ${DEMO_KEYS.acme}` }),
    });
    expect(renamed.status).toBe(200);
    const [, pushed] = await live.count(2);
    const name = String((pushed?.data?.organization as { name?: unknown } | undefined)?.name);
    expect(name).toMatch(/^Acme /);
    expect(name).not.toContain(DEMO_KEYS.acme);
  });
});
