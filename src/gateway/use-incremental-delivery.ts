import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import { type DocumentNode, Kind, parse, visit } from "graphql";
import type { Plugin } from "graphql-yoga";

/** What a client that can take a result in parts asks for. */
const INCREMENTAL = /multipart\/mixed|text\/event-stream/;

/**
 * `@defer` and `@stream` (yoga's defer-stream plugin) for clients that take results in parts
 * (`multipart/mixed` or SSE). A client that asks for plain JSON gets the same operation answered
 * whole, as if neither directive were there, rather than a 406: the directives are a hint.
 */
export function useIncrementalDelivery(): Plugin {
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useDeferStream() as Plugin);
    },
    onParse({ context, params, setParsedDocument }) {
      const request = (context as { request?: Request }).request;
      const accept = request?.headers.get("accept") ?? "";
      if (request === undefined || INCREMENTAL.test(accept)) return;
      const source = typeof params.source === "string" ? params.source : params.source.body;
      if (!/@(defer|stream)\b/.test(source)) return;
      setParsedDocument(withoutIncrementalDirectives(parse(source)));
    },
  };
}

function withoutIncrementalDirectives(document: DocumentNode): DocumentNode {
  return visit(document, {
    [Kind.DIRECTIVE]: (node) =>
      node.name.value === "defer" || node.name.value === "stream" ? null : undefined,
  });
}
