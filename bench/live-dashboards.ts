import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import { WebSocket } from "ws";
import { createGateway } from "../src/gateway/create-gateway.ts";
import { listen } from "../src/gateway/transport/server.ts";
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
              figures.bytesPushed += Buffer.byteLength(JSON.stringify(result));
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
    served(options, async (url, figures) => {
      const query = LIVE_DASHBOARD.replace(" @live", "");
      // Bounded: each dashboard asks once per interval until the minute is over, and no answer
      // is awaited past it.
      const endsAt = performance.now() + options.seconds * 1000;
      await Promise.all(
        Array.from({ length: options.dashboards }, async () => {
          while (performance.now() < endsAt) {
            const asked = performance.now();
            try {
              const response = await fetch(url, {
                method: "POST",
                headers: { "content-type": "application/json", authorization: KEY },
                body: JSON.stringify({ query }),
                signal: AbortSignal.timeout(Math.max(1, Math.ceil(endsAt - asked))),
              });
              const body = await response.arrayBuffer();
              figures.results += 1;
              figures.bytesPushed += body.byteLength;
            } catch (error) {
              // The minute ended with this answer still on its way: it is not counted.
              if ((error as Error).name === "TimeoutError") break;
              throw error;
            }
            const left = endsAt - performance.now();
            await sleep(
              Math.min(left, Math.max(0, options.intervalMs - (performance.now() - asked))),
            );
          }
        }),
      );
    }),
  ]);
  return { live, timer };
}

async function served(
  options: { seconds: number; intervalMs: number },
  /** Runs the dashboards until `until` (or, for the timer's, its own deadline of `seconds`). */
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

/** The row's settings: BENCH_LIVE_DASHBOARDS (default 50) for BENCH_LIVE_SECONDS (default 60). */
export function liveDashboardSettings(): {
  dashboards: number;
  seconds: number;
  intervalMs: number;
} {
  return {
    dashboards: Number(process.env.BENCH_LIVE_DASHBOARDS ?? 50),
    seconds: Number(process.env.BENCH_LIVE_SECONDS ?? 60),
    intervalMs: 1000,
  };
}

/** The row as one sentence, for `npm run bench`'s report and this file run alone. */
export function describeLiveDashboards(
  settings: { dashboards: number; seconds: number; intervalMs: number },
  figures: { live: DashboardFigures; timer: DashboardFigures },
): string {
  const { live, timer } = figures;
  return (
    `${settings.dashboards} dashboards of one organization kept current for ${settings.seconds} s ` +
    `(${settings.intervalMs} ms interval, calls starting and ending): @live over graphql-ws made ` +
    `${live.upstreamCalls} upstream calls and pushed ${live.bytesPushed} bytes in ${live.results} ` +
    `results; re-running the query every ${settings.intervalMs} ms made ${timer.upstreamCalls} ` +
    `upstream calls and sent ${timer.bytesPushed} bytes in ${timer.results} answers ` +
    `(${ratio(timer.upstreamCalls, live.upstreamCalls)}× the calls, ` +
    `${ratio(timer.bytesPushed, live.bytesPushed)}× the bytes).`
  );
}

const ratio = (a: number, b: number) => (b === 0 ? "∞" : (a / b).toFixed(1));

if (import.meta.main) {
  const settings = liveDashboardSettings();
  const figures = await liveDashboards(settings);
  console.log(JSON.stringify(figures, null, 2));
  console.log(describeLiveDashboards(settings, figures));
}
