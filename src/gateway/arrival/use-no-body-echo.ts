import type { GraphQLError } from "graphql";
import { createGraphQLError, isAsyncIterable, type Plugin } from "graphql-yoga";

/**
 * yoga puts the JSON parser's message into `extensions.originalError` of an invalid body's
 * error, and that message quotes the body: a megabyte sent is a megabyte echoed, and a page's
 * secrets could be reflected. Clients get the message and code alone.
 */
export function useNoBodyEcho(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (isAsyncIterable(result)) return;
      const results = Array.isArray(result) ? result : [result];
      if (!results.some((single) => single.errors?.some(echoes))) return;
      const cleaned = results.map((single) =>
        single.errors ? { ...single, errors: single.errors.map(withoutEcho) } : single,
      );
      setResult(Array.isArray(result) ? cleaned : (cleaned[0] ?? result));
    },
  };
}

const echoes = (error: GraphQLError) => error.extensions?.originalError !== undefined;

function withoutEcho(error: GraphQLError): GraphQLError {
  if (!echoes(error)) return error;
  const { originalError: _echo, http, ...extensions } = error.extensions;
  // yoga's `http.spec` would let a JSON answer say 200: the status stays the error's own.
  const status = (http as { status?: number } | undefined)?.status;
  return createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: status === undefined ? extensions : { ...extensions, http: { status } },
  });
}
