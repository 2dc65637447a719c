import { GraphQLError } from "graphql";
import { createHandler } from "graphql-sse/lib/use/fetch";
import type { Plugin, YogaServerInstance } from "graphql-yoga";
import { formatWithHttpStatus } from "./http-status.ts";

/** Where graphql-sse clients connect, in either mode (yoga's graphql-sse plugin's path too). */
export const SSE_STREAM_ENDPOINT = "/graphql/stream";

/**
 * The GraphQL over SSE protocol (graphql-sse) at `/graphql/stream`, in both its modes: distinct
 * connections, and the single-connection mode that a browser watching many live calls over
 * HTTP/1.1 (six connections per origin) needs. yoga's own plugin (@graphql-yoga/plugin-graphql-sse)
 * builds each operation from `getEnveloped` and so skips yoga's `onParams` hooks, where trusted
 * documents are enforced; here each operation goes through `getResultForParams`, the pipeline
 * HTTP requests and graphql-ws operations take, so every rule holds on this transport too.
 */
export function useSseSingleConnection(): Plugin {
  let handler: ((request: Request) => Promise<Response>) | undefined;
  const contexts = new WeakMap<Request, Record<string, unknown>>();
  return {
    onYogaInit({ yoga }) {
      const server = yoga as unknown as YogaServerInstance<Record<string, unknown>, object>;
      handler = createHandler(
        {
          async onSubscribe(req, params) {
            const request = req.raw as Request;
            try {
              const result = await server.getResultForParams(
                {
                  params: {
                    query: params.query as string,
                    ...(params.operationName ? { operationName: params.operationName } : {}),
                    ...(params.variables ? { variables: params.variables } : {}),
                    ...(params.extensions ? { extensions: params.extensions } : {}),
                  },
                  request,
                },
                { ...contexts.get(request), request },
              );
              return asResult(result) as never;
            } catch (error) {
              // onParams refusals (PERSISTED_QUERY_ONLY, …) are that operation's errors.
              if (error instanceof GraphQLError) return asResult({ errors: [error] }) as never;
              throw error;
            }
          },
          onNext: (_context, _req, result) => formatWithHttpStatus(result as never) as never,
        },
        server.fetchAPI,
      );
    },
    onRequest({ request, url, endResponse, serverContext }) {
      if (url.pathname !== SSE_STREAM_ENDPOINT || handler === undefined) return;
      contexts.set(request, serverContext as Record<string, unknown>);
      return handler(request).then(endResponse);
    },
  };
}

/**
 * graphql-sse takes an object as a result only when it has a `data` key; a refusal before
 * execution has none. An absent `data` is kept absent on the wire (undefined is not serialised).
 */
function asResult(result: unknown): unknown {
  if (typeof result !== "object" || result === null || Symbol.asyncIterator in result)
    return result;
  return "data" in result ? result : { data: undefined, ...result };
}
