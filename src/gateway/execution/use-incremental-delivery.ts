import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import { type DocumentNode, Kind, visit } from "graphql";
import type { Plugin } from "graphql-yoga";

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
export function useIncrementalDelivery(): Plugin {
  // Per parsed document (yoga's parser cache hands a text back as one object): its whole form.
  const whole = new WeakMap<DocumentNode, DocumentNode>();
  function wholeFormOf(document: DocumentNode): DocumentNode {
    let form = whole.get(document);
    if (form === undefined) {
      form = withoutIncrementalDirectives(document);
      whole.set(document, form);
    }
    return form;
  }
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useDeferStream() as Plugin);
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      const accept = request?.headers.get("accept") ?? "";
      if (request === undefined || INCREMENTAL.test(accept)) return;
      const document = wholeFormOf(args.document);
      if (document === args.document) return;
      setExecuteFn((run) => executeFn({ ...run, document }));
    },
  };
}

/** The document without `@defer` and `@stream`; the same object when it holds neither. */
function withoutIncrementalDirectives(document: DocumentNode): DocumentNode {
  let found = false;
  const stripped = visit(document, {
    [Kind.DIRECTIVE]: (node) => {
      if (node.name.value !== "defer" && node.name.value !== "stream") return undefined;
      found = true;
      return null;
    },
  });
  return found ? stripped : document;
}
