import { type OperationCall, operationOf, routeOf } from "./operations.ts";

/**
 * The REST operation a path belongs to, as its route template (`/v1/agents/{id}/stats`): what
 * metrics and spans name a call by, never a path with an ID or any other client text in it. The
 * operations table (operations.ts) names every operation's template; a path it does not know is
 * named by its shape, an ID-like segment as `{id}` and anything else odd as `{?}`.
 */
export function routeTemplate(call: {
  method: string;
  path: string;
  operation?: OperationCall;
}): string {
  const known = operationOf(call);
  if (known) return routeOf(known.row);
  const { method, path } = call;
  const [, version, collection, id, ...rest] = path.split("/");
  const segments = [version, collection, id === undefined ? undefined : "{id}", ...rest];
  const word = /^[a-z0-9-]+$/;
  const template = segments
    .filter((segment) => segment !== undefined)
    .map((segment) => (segment === "{id}" || word.test(segment as string) ? segment : "{?}"))
    .join("/");
  return `${method} /${template}`;
}
