import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { boundedParserCaches } from "../admission/text-caches.ts";
import type { GatewayContext } from "../execution/context.ts";
import { renderGraphiQLPage } from "../pages/graphiql-page.ts";
import type { GatewayServerContext } from "../settings/gateway-options.ts";
import { maskError, maskSessionError } from "../shared/mask-error.ts";
import { corsFor } from "../transport/cors.ts";
import type { GatewayParts } from "./gateway-parts.ts";
import type { OperationContexts } from "./operation-contexts.ts";
import type { AnyPlugin } from "./pipeline.ts";

/** The yoga app over the pipeline's plugins: its endpoints, errors, context and transports. */
export function createYogaApp(
  parts: GatewayParts,
  contexts: OperationContexts,
  plugins: AnyPlugin[],
): YogaServerInstance<GatewayServerContext, GatewayContext> {
  const { options } = parts;
  return createYoga<GatewayServerContext, GatewayContext>({
    schema: parts.settings.schema,
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
    logging: parts.settings.logger,
    // Session mode forwards no upstream text it cannot vouch for (docs/security.md).
    maskedErrors: { maskError: options.session ? maskSessionError : maskError },
    context: (initial) => contexts.ofYoga(initial),
    cors: corsFor(parts.settings.corsOrigins),
    // The schema takes no files: multipart requests are not accepted.
    multipart: false,
    parserAndValidationCache: boundedParserCaches(parts.settings.bounds),
    batching: parts.settings.maxBatchSize > 0 ? { limit: parts.settings.maxBatchSize } : false,
    plugins,
  });
}
