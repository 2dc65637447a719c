import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { GraphiQLOptions, Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import { requestIdOf } from "../arrival/request-id.ts";
import { refusalResponse } from "../shared/http-status.ts";
import { chosenEncoding, createEncodedAssets } from "./asset-encoding.ts";

/**
 * GraphiQL as a small page plus separate files: the package's own renderer inlines 9 MB of
 * script, styles and workers into every page load; here each asset is fetched once, compressed,
 * and cached by the browser (its path carries a content hash, so it can be cached for a year).
 */
interface Asset {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly type: string;
}

interface Assets {
  /** Where the assets are served: `${prefix}/graphiql.js` and so on. */
  readonly prefix: string;
  readonly files: Record<string, Asset>;
}

const require = createRequire(import.meta.url);
let loaded: Assets | undefined;

/**
 * The assets, read on first use: a gateway with GraphiQL off never holds their 9 MB of text
 * (and its encoded copy) in memory (docs/benchmarks.md).
 */
function assets(): Assets {
  if (loaded) return loaded;
  const { css, editorWorkerService, favicon, graphqlWorker, js, jsonWorker } =
    require("@graphql-yoga/render-graphiql/graphiql") as typeof import("@graphql-yoga/render-graphiql/graphiql");
  const encoder = new TextEncoder();
  const text = (body: string, type: string): Asset => ({ body: encoder.encode(body), type });
  const version = createHash("sha256")
    .update(js)
    .update(css)
    .update(editorWorkerService)
    .update(jsonWorker)
    .update(graphqlWorker)
    .digest("hex")
    .slice(0, 16);
  loaded = {
    prefix: `/graphiql/assets/${version}`,
    files: {
      "graphiql.js": text(js, "text/javascript; charset=utf-8"),
      "graphiql.css": text(css, "text/css; charset=utf-8"),
      "editor.worker.js": text(editorWorkerService, "text/javascript; charset=utf-8"),
      "json.worker.js": text(jsonWorker, "text/javascript; charset=utf-8"),
      "graphql.worker.js": text(graphqlWorker, "text/javascript; charset=utf-8"),
      "favicon.ico": {
        body: new Uint8Array(Buffer.from(favicon.slice(favicon.indexOf(",") + 1), "base64")),
        type: "image/x-icon",
      },
    },
  };
  return loaded;
}

/** JSON that is safe inside a <script> element (no `</script>` can close it early). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** yoga's `renderGraphiQL`: a page of about 1 KB that loads the cached assets. */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  const ASSET_PREFIX = assets().prefix;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? "GraphiQL")}</title>
    <link rel="icon" href="${ASSET_PREFIX}/favicon.ico" />
    <link rel="stylesheet" href="${ASSET_PREFIX}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      const workers = {
        editorWorkerService: "${ASSET_PREFIX}/editor.worker.js",
        json: "${ASSET_PREFIX}/json.worker.js",
        graphql: "${ASSET_PREFIX}/graphql.worker.js",
      };
      self.MonacoEnvironment = {
        globalAPI: false,
        getWorkerUrl: (moduleId, label) => workers[label],
      };
    </script>
    <script src="${ASSET_PREFIX}/graphiql.js"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), ${scriptJson(options)});
    </script>
  </body>
</html>
`;
}

/**
 * Serves the assets under ASSET_PREFIX, immutable for a year, compressed as the client's
 * `Accept-Encoding` asks (brotli, else gzip: 9 MB of text becomes about 2); anything else passes.
 */
export function useGraphiQLAssets(): Plugin {
  const encodedAsset = createEncodedAssets();
  return {
    async onRequest({ url, request, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith("/graphiql/assets/")) return;
      const { prefix: ASSET_PREFIX, files: ASSETS } = assets();
      const name = url.pathname.slice(ASSET_PREFIX.length + 1);
      const known = url.pathname.startsWith(`${ASSET_PREFIX}/`) && Object.hasOwn(ASSETS, name);
      const asset = known ? ASSETS[name] : undefined;
      if (!asset || (request.method !== "GET" && request.method !== "HEAD")) {
        const missing = gatewayError("NOT_FOUND", `No GraphiQL asset at ${url.pathname}.`);
        endResponse(refusalResponse(missing, requestIdOf(request), fetchAPI));
        return;
      }
      const encoding = chosenEncoding(request.headers.get("accept-encoding"));
      const body = encoding ? await encodedAsset(name, asset.body, encoding) : asset.body;
      endResponse(
        new fetchAPI.Response(request.method === "HEAD" ? null : body, {
          status: 200,
          headers: {
            "content-type": asset.type,
            "content-length": String(body.byteLength),
            ...(encoding ? { "content-encoding": encoding } : {}),
            vary: "accept-encoding",
            "cache-control": "public, max-age=31536000, immutable",
          },
        }),
      );
    },
  };
}
