// autocannon ships no types; only the fields the bench reads are declared.
declare module "autocannon" {
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }
  interface Result {
    /** `sent`: every request written, those still in flight when the run stopped included. */
    requests: Histogram & { sent: number };
    latency: Histogram;
    errors: number;
    non2xx: number;
    timeouts: number;
  }
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Client {
    /** This connection's requests from now on, sent in turn, round robin. */
    setRequests(requests: Request[]): void;
  }
  interface Options {
    url: string;
    /** Called with each connection's client before its first request. */
    setupClient?: (client: Client) => void;
    connections: number;
    duration: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
