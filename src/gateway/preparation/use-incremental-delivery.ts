import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import type { Plugin } from "graphql-yoga";
import type { DocumentFactsCache } from "../shared/document-facts.ts";

/** What a client that can take a result in parts asks for. */
const INCREMENTAL = /multipart\/mixed|text\/event-stream/;

/**
 * `@defer` and `@stream` (yoga's defer-stream plugin) for clients that take results in parts
 * (`multipart/mixed` or SSE). A client that asks for plain JSON gets the same operation answered
 * whole, as if neither directive were there, rather than a 406: the directives are a hint.
 *
 * The document is parsed once, by the parser every document goes through (MAX_TOKENS), and
 * cached by its text for every client alike; whether it runs whole is decided per request, at
 * execution, so no client's request changes what another is answered.
 */
export function useIncrementalDelivery(documents: DocumentFactsCache): Plugin {
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useDeferStream() as Plugin);
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      const accept = request?.headers.get("accept") ?? "";
      if (request === undefined || INCREMENTAL.test(accept)) return;
      const facts = documents.of(args.document);
      if (!facts.incremental) return;
      const document = facts.wholeForm;
      setExecuteFn((run) => executeFn({ ...run, document }));
    },
  };
}
