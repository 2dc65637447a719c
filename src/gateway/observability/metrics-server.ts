import { createServer } from "node:http";
import { listenHttp } from "../../listen.ts";
import type { GatewayMetrics } from "./metrics.ts";

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), for a scraper on a private network: the
 * gateway's public port then does not serve it. Anything else is 404; no CORS headers ever.
 */
export async function serveMetrics(metrics: GatewayMetrics, port: number, host: string) {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  const url = await listenHttp(server, port, host);
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
