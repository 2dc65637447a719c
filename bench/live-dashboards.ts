import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import { WebSocket } from "ws";
import { createGateway } from "../src/gateway/create-gateway.ts";
import { listen } from "../src/gateway/http/server.ts";
import { DEMO_KEYS } from "../src/sandbox/seed-data.ts";
import { startSandbox } from "../src/sandbox/server.ts";
import { createUpstreamClient } from "../src/upstream/client.ts";

/** A call-centre dashboard: the organization, the calls in progress with their agents. */
export const LIVE_DASHBOARD = `query LiveDashboard @live {
  organization { id name }
  conversations(first: 10, filter: { status: IN_PROGRESS }) {
    totalCount
    nodes { id startedAt agent { id name status } }
  }
}`;

export interface DashboardFigures {
  upstreamCalls: number;
  /** Bytes of results sent to the dashboards (JSON text). */
  bytesPushed: number;
  results: number;
}

const KEY = `Bearer ${DEMO_KEYS.acme}`;

/**
 * `dashboards` dashboards kept current for `seconds`, two ways at once over two sandboxes of the
 * same settings (calls keep starting and ending): `@live` over graphql-ws, and the same query
 * re-run over HTTP every `intervalMs` (what a page does without live queries). The figures are
 * counts, not rates, so the two may share the machine.
 */
export async function liveDashboards(options: {
  dashboards: number;
  seconds: number;
  intervalMs: number;
}): Promise<{ live: DashboardFigures; timer: DashboardFigures }> {
  const [live, timer] = await Promise.all([
    served(options, async (url, figures, until) => {
      const clients = Array.from({ length: options.dashboards }, () =>
        createClient({
          url: url.replace(/^http/, "ws"),
          webSocketImpl: WebSocket,
          connectionParams: { Authorization: KEY },
        }),
      );
      const stops = clients.map((client) =>
        client.subscribe(
          { query: LIVE_DASHBOARD },
          {
            next: (result) => {
              figures.results += 1;
              figures.bytesPushed += JSON.stringify(result).length;
            },
            error: () => undefined,
            complete: () => undefined,
          },
        ),
      );
      await until;
      for (const stop of stops) stop();
      await Promise.all(clients.map((client) => client.dispose()));
    }),
    served(options, async (url, figures, until) => {
      let over = false;
      void until.then(() => {
        over = true;
      });
      const query = LIVE_DASHBOARD.replace(" @live", "");
      await Promise.all(
        Array.from({ length: options.dashboards }, async () => {
          while (!over) {
            const response = await fetch(url, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: KEY },
              body: JSON.stringify({ query }),
            });
            const text = await response.text();
            figures.results += 1;
            figures.bytesPushed += text.length;
            await sleep(options.intervalMs);
          }
        }),
      );
    }),
  ]);
  return { live, timer };
}

async function served(
  options: { seconds: number; intervalMs: number },
  run: (url: string, figures: DashboardFigures, until: Promise<void>) => Promise<void>,
): Promise<DashboardFigures> {
  const sandbox = await startSandbox({ port: 0, callIntervalMs: 5_000, callDurationMs: 20_000 });
  const upstream = createUpstreamClient({ baseUrl: sandbox.url });
  const gateway = createGateway({
    upstream,
    logging: false,
    pollIntervalMs: options.intervalMs,
    bounds: { maxSubscriptionsPerKey: 10_000, maxSubscriptionsTotal: 10_000 },
  });
  const server = await listen(gateway, 0, "127.0.0.1");
  const figures: DashboardFigures = { upstreamCalls: 0, bytesPushed: 0, results: 0 };
  try {
    sandbox.clearRequests();
    await run(`${server.url}/graphql`, figures, sleep(options.seconds * 1000));
    figures.upstreamCalls = sandbox.requests.length;
  } finally {
    await server.close();
    await upstream.close();
    await sandbox.close();
  }
  return figures;
}

if (import.meta.main) {
  const figures = await liveDashboards({
    dashboards: Number(process.env.BENCH_LIVE_DASHBOARDS ?? 50),
    seconds: Number(process.env.BENCH_LIVE_SECONDS ?? 60),
    intervalMs: 1000,
  });
  console.log(JSON.stringify(figures, null, 2));
}
