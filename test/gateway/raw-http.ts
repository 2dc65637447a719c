import { request } from "node:http";
import { connect } from "node:net";

/** An answer as it came off the wire. */
export interface Answer {
  status: number;
  /** Raw header lines in order, Date left out. */
  headers: string[];
  body: string;
}

/** A request as it goes on the wire. */
export interface Sent {
  method?: "GET" | "POST";
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent in chunks without a Content-Length. */
  chunked?: boolean;
}

/** Sends `sent` to `base` over node:http; the answer with its raw header lines, Date left out. */
export function send(base: string, sent: Sent): Promise<Answer> {
  const url = new URL(sent.path ?? "/graphql", base);
  const body = sent.body ?? "";
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: sent.method ?? "POST",
        headers: {
          ...(sent.method === "GET" || sent.chunked
            ? {}
            : { "content-length": String(Buffer.byteLength(body)) }),
          ...sent.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          const headers: string[] = [];
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            const name = response.rawHeaders[i] as string;
            if (name.toLowerCase() !== "date")
              headers.push(`${name}: ${response.rawHeaders[i + 1]}`);
          }
          resolve({ status: response.statusCode ?? 0, headers, body: text });
        });
      },
    );
    outgoing.on("error", reject);
    if (sent.method === "GET") outgoing.end();
    else if (sent.chunked) {
      outgoing.write(body.slice(0, 5));
      outgoing.end(body.slice(5));
    } else outgoing.end(body);
  });
}

/**
 * Everything a server writes back to `bytes` sent on a raw socket, until it closes: what
 * node:http answers where no client library would send such a request.
 */
export function rawExchange(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(text));
    socket.write(bytes);
  });
}
