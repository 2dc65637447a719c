import { createServer } from "node:http";
import { Pool } from "undici";
import { serveUntilStopped } from "./processes.ts";

/**
 * The floor: a keep-alive forwarder with no GraphQL. Started as a child process so its RSS is
 * its own; prints its URL on stdout.
 */
const upstream = process.argv[2] as string;
const pool = new Pool(upstream, { connections: 32 });
const server = createServer(async (req, res) => {
  try {
    const answer = await pool.request({
      method: "GET",
      path: req.url ?? "/",
      headers: { authorization: req.headers.authorization ?? "" },
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    res.writeHead(answer.statusCode, { "content-type": "application/json" }).end(body);
  } catch {
    res.writeHead(502).end();
  }
});
serveUntilStopped(server, () => pool.close());
