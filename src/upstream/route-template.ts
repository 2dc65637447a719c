/**
 * The REST operation a path belongs to, as its route template (`/v1/agents/{id}/stats`): what
 * metrics and spans name a call by, never a path with an ID or any other client text in it.
 */
export function routeTemplate(method: string, path: string): string {
  const [, version, collection, id, ...rest] = path.split("/");
  // The two operations whose third segment is a word, not an ID.
  const fixed = collection === "phone-numbers" || collection === "tools";
  const segments = [
    version,
    collection,
    id === undefined ? undefined : fixed ? id : "{id}",
    ...rest,
  ];
  const known = /^[a-z0-9-]+$/;
  const template = segments
    .filter((segment) => segment !== undefined)
    .map((segment) => (segment === "{id}" || known.test(segment as string) ? segment : "{?}"))
    .join("/");
  return `${method} /${template}`;
}
