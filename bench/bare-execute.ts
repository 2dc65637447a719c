import { createServer } from "node:http";
import { type DocumentNode, execute, parse, validate } from "graphql";
import { createCursorKey } from "../src/connections/cursor.ts";
import { createContext } from "../src/gateway/execution/context.ts";
import { ConversationStatusHub } from "../src/gateway/live/conversation-status-hub.ts";
import { LiveHub } from "../src/gateway/live/live-hub.ts";
import { GATEWAY_DEFAULTS } from "../src/gateway/settings/defaults.ts";
import { schema } from "../src/schema/index.ts";
import { createUpstreamClient } from "../src/upstream/client.ts";
import { createKeyHasher } from "../src/upstream/key-memory.ts";
import { serveUntilStopped } from "./processes.ts";

/**
 * The ceiling of any fast path that keeps voicegraph's schema: its resolvers, DataLoaders and
 * upstream client, behind bare node:http and graphql-js's `execute`, with nothing else. No yoga,
 * no plugin (so none of the gateway's rules: no limits, cost, masking, rate-limit figures, request
 * IDs or logs), a document parsed and validated once per text. Not a product path: the bench
 * measures it so that the gateway's cost can be split into the schema's and the server's
 * (README: Benchmarks). Started as a child process; prints its URL on stdout.
 */
const upstream = createUpstreamClient({ baseUrl: process.argv[2] as string });
const keyHash = createKeyHasher();
const dependencies = {
  upstream,
  keyHash,
  conversationStatusHub: new ConversationStatusHub({
    hub: new LiveHub({
      upstream,
      keyHash,
      intervalMs: GATEWAY_DEFAULTS.pollIntervalMs,
      rateLimitShare: GATEWAY_DEFAULTS.liveRateLimitShare,
    }),
    keyHash,
  }),
  cursorKey: createCursorKey(),
  maxUpstreamCalls: 1000,
};
const documents = new Map<string, DocumentNode>();
let requests = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    try {
      const params = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        query: string;
        variables?: Record<string, unknown>;
      };
      let document = documents.get(params.query);
      if (document === undefined) {
        document = parse(params.query);
        if (validate(schema, document).length > 0) throw new Error("invalid document");
        documents.set(params.query, document);
      }
      const contextValue = createContext(dependencies, {
        authorization: req.headers.authorization,
        requestId: `bare-${++requests}`,
      });
      const result = await execute({
        schema,
        document,
        contextValue,
        variableValues: params.variables ?? null,
      });
      const body = JSON.stringify(result);
      res.writeHead(200, { "content-type": "application/graphql-response+json; charset=utf-8" });
      res.end(body);
    } catch {
      res.writeHead(400).end();
    }
  });
});
serveUntilStopped(server, () => upstream.close());
