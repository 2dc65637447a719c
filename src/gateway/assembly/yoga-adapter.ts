/**
 * The one file that reaches into graphql-yoga (pinned in package.json to the version below): what
 * the fast path and the prepared lane use of the server yoga hands its plugins in `onYogaInit`,
 * beyond yoga's public API, and the Accept rule of its result processor, which it does not
 * export. test/gateway/yoga-adapter.test.ts fails, naming this adapter, when an upgrade moves
 * what it relies on. Everything else uses yoga's plugin hooks.
 */
export const YOGA_ADAPTER = { name: "yoga-adapter", writtenAgainst: "5.24.1" } as const;

/** A hook of the server adapter (whatwg-node) that yoga's plugins declare: onRequest, onResponse. */
export type AdapterHook = (payload: Record<string, unknown>) => unknown;
export type YogaHandler = (request: Request, serverContext: Record<string, unknown>) => unknown;

/** What the gateway uses of yoga's server (the YogaServer its plugins are given). */
export interface YogaCore {
  readonly graphqlEndpoint: string;
  readonly fetchAPI: { Headers: typeof Headers; Response: typeof Response; URL: typeof URL };
  /** Runs a Fetch-like request through yoga, as its server adapter does after onRequest. */
  readonly handle: YogaHandler;
  /** Instrumented servers wrap every stage: the fast path then keeps the adapter's own path. */
  readonly instrumented: boolean;
  /** yoga's logger: the gateway's, with its levels and redaction. */
  readonly logger: { error(...args: unknown[]): void };
  /** Every plugin's hook of this name, in yoga's order (plugins added by plugins included). */
  hooks(name: "onRequest" | "onResponse"): AdapterHook[];
  /** Every plugin's own property of this name, in yoga's order, where it is a function. */
  pluginFunctions(name: string): Array<(...args: never[]) => unknown>;
}

interface YogaServerInternals {
  readonly graphqlEndpoint: string;
  readonly fetchAPI: YogaCore["fetchAPI"];
  readonly handle: YogaHandler;
  readonly plugins: Array<Record<string, unknown> | false | undefined>;
  readonly instrumentation?: unknown;
  readonly logger: YogaCore["logger"];
}

/** The server `onYogaInit` hands a plugin, as the gateway uses it. */
export function yogaCoreOf(yoga: unknown): YogaCore {
  const server = yoga as YogaServerInternals;
  const pluginFunctions = (name: string) =>
    server.plugins.flatMap((plugin) =>
      plugin && typeof plugin[name] === "function"
        ? [plugin[name] as (...args: never[]) => unknown]
        : [],
    );
  // Read from the server when asked, as yoga may set them after its plugins' onYogaInit.
  return {
    get graphqlEndpoint() {
      return server.graphqlEndpoint;
    },
    get fetchAPI() {
      return server.fetchAPI;
    },
    get handle() {
      return server.handle;
    },
    get instrumented() {
      return server.instrumentation !== undefined;
    },
    get logger() {
      return server.logger;
    },
    hooks: (name) => pluginFunctions(name) as AdapterHook[],
    pluginFunctions,
  };
}

/** The media types yoga answers a whole result in, in the order it tries them. */
const REGULAR_MEDIA_TYPES = ["application/graphql-response+json", "application/json"] as const;

/**
 * The media type yoga's result processor answers a whole result in for this Accept header
 * (graphql-yoga's result-processor/accept.js and use-result-processor.js, which it does not
 * export): UTF-8 types only, the last match winning over the reversed list; undefined where it
 * would answer 406. test/gateway/prepared-lane.test.ts holds the two to the same answer.
 */
export function answeredMediaType(accept: string | null): string | undefined {
  // What most clients send, answered without the walk (the same answers as the walk's).
  if (accept === null || accept === "" || accept === "*/*") return "application/json";
  if (accept === "application/json" || accept === "application/graphql-response+json") {
    return accept;
  }
  const asked = (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",");
  const types: string[] = [];
  for (const item of asked) {
    const [type, ...parameters] = item.split(";");
    if (type === undefined) continue;
    const charset = parameters.find((p) => p.includes("charset=")) ?? "charset=utf-8";
    if (charset === "charset=utf-8") types.push(type);
  }
  let chosen: string | undefined;
  for (const type of types.reverse()) {
    const [askedMain, askedSub] = type.split("/");
    for (const candidate of REGULAR_MEDIA_TYPES) {
      const [main, sub] = candidate.split("/");
      if ((askedMain === "*" || askedMain === main) && (askedSub === "*" || askedSub === sub)) {
        chosen = candidate;
      }
    }
  }
  return chosen;
}
