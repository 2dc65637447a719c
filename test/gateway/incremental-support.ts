import { ACME } from "./harness.ts";

/** POSTs a query with Acme's key as a client that takes a result in parts (`accept`). */
export function postTakingParts(url: string, query: string, accept = "multipart/mixed") {
  return fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept, authorization: ACME },
    body: JSON.stringify({ query }),
  });
}

/** Every chunk of the response body as it arrives, in order. */
export async function chunks(response: Response): Promise<string[]> {
  const seen: string[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return seen;
    seen.push(decoder.decode(value, { stream: true }));
  }
}
