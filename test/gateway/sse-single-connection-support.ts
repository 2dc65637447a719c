import { TOKEN_HEADER_KEY } from "graphql-sse";

/**
 * graphql-sse's single-connection protocol spoken by hand, as an attacker would: a `PUT`
 * reserves, a `GET` opens, each operation is a `POST` with the token, a `DELETE` ends one.
 */
export function singleConnection(url: string) {
  const endpoint = `${url}/graphql/stream`;
  const headersOf = (authorization: string | undefined, token?: string) => ({
    ...(authorization === undefined ? {} : { authorization }),
    ...(token === undefined ? {} : { [TOKEN_HEADER_KEY]: token }),
  });
  return {
    /** Reserves a stream; `chosen` is a token the client would like (never granted). */
    put: (authorization: string | undefined, chosen?: string) =>
      fetch(endpoint, { method: "PUT", headers: headersOf(authorization, chosen) }),
    /** Opens the stream of `token`: the response's body is the event stream. */
    open: (token: string, authorization: string | undefined, signal?: AbortSignal) =>
      fetch(`${endpoint}?token=${encodeURIComponent(token)}`, {
        headers: { ...headersOf(authorization), accept: "text/event-stream" },
        ...(signal ? { signal } : {}),
      }),
    post: (
      token: string,
      authorization: string | undefined,
      query: string,
      operationId: string,
      variables?: Record<string, unknown>,
    ) =>
      fetch(endpoint, {
        method: "POST",
        headers: { ...headersOf(authorization, token), "content-type": "application/json" },
        body: JSON.stringify({ query, variables, extensions: { operationId } }),
      }),
    remove: (token: string, authorization: string | undefined, operationId: string) =>
      fetch(`${endpoint}?operationId=${encodeURIComponent(operationId)}`, {
        method: "DELETE",
        headers: headersOf(authorization, token),
      }),
  };
}

/** Reads an event stream's text until `done` says it has what it waits for, or it ends. */
export async function readUntil(
  response: Response,
  done: (text: string) => boolean,
  timeoutMs = 5_000,
): Promise<{ text: string; ended: boolean }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel();
  }, timeoutMs);
  try {
    for (;;) {
      const { done: ended, value } = await reader.read();
      if (timedOut) throw new Error(`event stream still waiting after ${timeoutMs} ms: ${text}`);
      if (value) text += decoder.decode(value, { stream: true });
      if (ended) return { text, ended: true };
      if (done(text)) return { text, ended: false };
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}

/** Waits for `condition` to hold, checking often, for at most `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`still not so after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
