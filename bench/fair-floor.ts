import { createServer } from "node:http";
import { Pool } from "undici";
import { serveUntilStopped } from "./processes.ts";

/**
 * The fair floor: what any GraphQL gateway must do at least for the single resource.
 * It parses the POSTed request, makes the one GET, parses the answer and writes the GraphQL-shaped
 * answer, with no schema, no validation and no rule. The agent is the `id` variable, or else the
 * literal argument of `agent(id: "…")`. Started as a child process so its RSS is its
 * own; prints its URL on stdout.
 */
const upstream = process.argv[2] as string;
const pool = new Pool(upstream, { connections: 32 });
const FIELDS = ["id", "name", "status", "greeting"] as const;

const server = createServer(async (req, res) => {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { query, variables } = JSON.parse(Buffer.concat(chunks).toString()) as {
      query: string;
      variables?: { id?: unknown };
    };
    const id =
      typeof variables?.id === "string"
        ? variables.id
        : (/agent\(id: "([^"]+)"\)/.exec(query)?.[1] ?? "");
    const answer = await pool.request({
      method: "GET",
      path: `/v1/agents/${encodeURIComponent(id)}`,
      headers: { authorization: req.headers.authorization ?? "", accept: "application/json" },
    });
    const agent = (await answer.body.json()) as Record<string, unknown>;
    const data = {
      agent: Object.fromEntries(FIELDS.map((field) => [field, agent[field] ?? null])),
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
  } catch {
    res.writeHead(502).end();
  }
});
serveUntilStopped(server, () => pool.close());
