import type { Plugin } from "graphql-yoga";

const page = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>voicegraph</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>voicegraph</h1>
${body}
</body></html>
`;

/**
 * `GET /`, and a browser's `GET /graphql` while GraphiQL is off, answer a short page that says
 * where the endpoint is and how to turn GraphiQL on, instead of a 404 or a 406 with no body.
 */
export function useLandingPage(
  endpoint: string,
  graphiqlOn: boolean,
  /** Session mode: a browser must never hold an API key, so the page never asks for one. */
  sessionMode = false,
): Plugin {
  const credential = sessionMode
    ? "<code>Authorization: Bearer &lt;session token&gt;</code> from the frontend's own sign-in (the API keys stay on this server)"
    : "<code>Authorization: Bearer &lt;API key&gt;</code>";
  const where = `<p>The GraphQL endpoint is <code>POST ${endpoint}</code> (queries also as <code>GET</code>), with ${credential}; subscriptions over SSE or graphql-ws on the same path.</p>`;
  const howToTurnOn = graphiqlOn
    ? `<p>GraphiQL, the in-browser explorer, is at <a href="${endpoint}">${endpoint}</a>.</p>`
    : "<p>GraphiQL, the in-browser explorer, is off on this gateway: start it with <code>GRAPHIQL=true</code> to serve it at the same path.</p>";
  const html = page(
    `${where}\n${howToTurnOn}\n<p>Health: <code>/healthz</code>, readiness: <code>/readyz</code>.</p>`,
  );
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== "GET") return;
      const browserAtEndpoint =
        !graphiqlOn &&
        url.pathname === endpoint &&
        !url.searchParams.has("query") &&
        (request.headers.get("accept") ?? "").includes("text/html");
      if (url.pathname !== "/" && !browserAtEndpoint) return;
      endResponse(
        new fetchAPI.Response(html, {
          status: 200,
          headers: { "content-type": "text/html; charset=utf-8" },
        }),
      );
    },
  };
}
