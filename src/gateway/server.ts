import { createServer, type Server } from "node:http";
import type { ExecutionArgs } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { listenHttp } from "../listen.ts";
import type { Gateway } from "./create-gateway.ts";
import { formatWithHttpStatus } from "./http-status.ts";

export interface ListeningGateway {
  /** e.g. "http://127.0.0.1:4000" */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

type EnvelopedRoot = {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
};

/**
 * Serves the gateway over HTTP (queries, mutations, SSE subscriptions, GraphiQL) and over
 * graphql-ws on the same `/graphql` path, both through yoga's envelop so every plugin applies.
 */
export async function listen(
  gateway: Gateway,
  port: number,
  host: string,
): Promise<ListeningGateway> {
  const server = createServer(gateway);
  const webSockets = new WebSocketServer({ server, path: gateway.graphqlEndpoint });
  const graphqlWs = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      // graphql-ws serialises results itself: catalogue errors get `http.status` here.
      onNext: (_context, _id, _payload, _args, result) => formatWithHttpStatus(result) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      onSubscribe: async (context, _id, payload) => {
        const enveloped = gateway.getEnveloped({
          ...context,
          req: context.extra.request,
          socket: context.extra.socket,
          params: payload,
        });
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName ?? null,
          document: enveloped.parse(payload.query),
          variableValues: payload.variables ?? null,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
        const errors = enveloped.validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    webSockets,
  );

  const url = await listenHttp(server, port, host);
  return {
    url,
    server,
    async close() {
      gateway.conversationStatusHub.close();
      await graphqlWs.dispose();
      webSockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
