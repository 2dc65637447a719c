import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { schema } from "../schema/index.ts";
import { boundedParserCaches } from "./admission/text-caches.ts";
import type { GatewayContext } from "./execution/context.ts";
import type { OperationContexts } from "./execution/operation-contexts.ts";
import type { GatewayServerContext } from "./gateway-options.ts";
import type { GatewayParts } from "./gateway-parts.ts";
import { corsFor } from "./http/cors.ts";
import { renderGraphiQLPage } from "./http/graphiql-page.ts";
import { maskError, maskSessionError } from "./mask-error.ts";
import { createGatewayLogger } from "./observability/logger.ts";
import type { AnyPlugin } from "./pipeline.ts";

/** The yoga app over the pipeline's plugins: its endpoints, errors, context and transports. */
export function createYogaApp(
  parts: GatewayParts,
  contexts: OperationContexts,
  plugins: AnyPlugin[],
): YogaServerInstance<GatewayServerContext, GatewayContext> {
  const { options } = parts;
  return createYoga<GatewayServerContext, GatewayContext>({
    schema: options.schema ?? schema,
    graphqlEndpoint: "/graphql",
    healthCheckEndpoint: "/healthz",
    landingPage: false,
    graphiql:
      options.graphiql === undefined || options.graphiql === false
        ? false
        : { title: "voicegraph", ...options.graphiql },
    // GraphiQL's assets come from the package, not a CDN: it works on a closed network. They
    // are separate cacheable files, not 9 MB inlined into every page load.
    renderGraphiQL: renderGraphiQLPage,
    logging:
      typeof options.logging === "object"
        ? options.logging
        : createGatewayLogger(options.logging === false ? "silent" : (options.logging ?? "info")),
    // Session mode forwards no upstream text it cannot vouch for (docs/security.md).
    maskedErrors: { maskError: options.session ? maskSessionError : maskError },
    context: (initial) => contexts.ofYoga(initial),
    cors: corsFor(options.corsOrigins ?? ["*"]),
    // The schema takes no files: multipart requests are not accepted.
    multipart: false,
    parserAndValidationCache: boundedParserCaches(parts.bounds),
    batching: (options.maxBatchSize ?? 0) > 0 ? { limit: options.maxBatchSize } : false,
    plugins,
  });
}
