import autocannon, { type Request } from "autocannon";
import { Pool } from "undici";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Requests written, the ones in flight when the run stopped included. */
  sent: number;
  errors: number;
}

export type { Request } from "autocannon";

/**
 * One bounded autocannon run on loopback. With `perConnection`, connection `i` (from 0) sends
 * `perConnection(i)`'s requests in turn, round robin, instead of the one request described.
 */
export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  perConnection?: (connection: number) => Request[];
}): Promise<LoadResult> {
  const { perConnection } = options;
  let connections = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    ...(perConnection && {
      setupClient: (client) => client.setRequests(perConnection(connections++)),
    }),
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    sent: result.requests.sent,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/**
 * The median latency of `count` requests sent one at a time over one keep-alive connection (after
 * a bounded warm-up), in ms to the hundredth: what a request costs with no queue in front of it.
 * autocannon's figures are whole milliseconds, and at 16 connections they include the queueing.
 */
export async function medianAlone(
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  count = 1000,
): Promise<number> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 1 });
  const once = async () => {
    const answer = await pool.request({
      path: target.pathname,
      method: init.method ?? "GET",
      headers: init.headers,
      body: init.body,
    });
    await answer.body.dump();
    if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
  };
  try {
    for (let i = 0; i < 200; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await once();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return Math.round((times[count >> 1] as number) * 100) / 100;
  } finally {
    await pool.close();
  }
}
