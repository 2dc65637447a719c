import { createHash } from "node:crypto";

// Requests of the APQ memory tests: a POST that reads the answer, and the bodies that register a
// document by its hash or name one by its hash alone.

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
export const ORGANIZATION = "query Org { organization { name } }";

export async function post(url: string, body: unknown, authorization: string | null) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(authorization === null ? {} : { authorization }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

export const byHash = (query: string) => ({
  extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
});
export const withQuery = (query: string) => ({ query, ...byHash(query) });
export const codeOf = (answer: { body: Record<string, unknown> }) =>
  (answer.body.errors as Array<{ extensions: { code: string } }> | undefined)?.[0]?.extensions.code;
