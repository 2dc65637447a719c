import { createServer } from "node:http";
import { gatewayError } from "../../errors.ts";
import { listenHttp } from "../../listen.ts";
import { writeRefusal } from "../shared/http-status.ts";
import type { GatewayMetrics } from "./metrics.ts";

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), for a scraper on a private network: the
 * gateway's public port then does not serve it. Anything else is a 404 `NOT_FOUND`; no CORS headers ever.
 */
export async function serveMetrics(metrics: GatewayMetrics, port: number, host: string) {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      writeRefusal(res, gatewayError("NOT_FOUND", "Only `GET /metrics` is served on this port."));
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      () => writeRefusal(res, gatewayError("INTERNAL_SERVER_ERROR", "Unexpected error.")),
    );
  });
  const url = await listenHttp(server, port, host);
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
