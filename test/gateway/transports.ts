import { createClient as createSseClient } from "graphql-sse";
import { createClient } from "graphql-ws";
import { WebSocket } from "ws";
import type { Harness } from "./harness.ts";
import { payloads, subscribeSse, within } from "./subscriptions-support.ts";

/** What a client saw of one operation, whatever carried it. */
export interface Seen {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** A transport as a client uses it: run operations with one Authorization value. */
export interface Transport {
  readonly name: "HTTP" | "SSE" | "graphql-sse single connection" | "graphql-ws";
  /** Which Authorization values it can carry at all (HTTP headers carry no control character). */
  carries(authorization: string): boolean;
  /** Opens a client with this Authorization; `run` sends one operation and reads its answer. */
  open(
    harness: Harness,
    authorization: string,
  ): { run(query: string): Promise<Seen>; isOpen(): boolean; close(): Promise<void> };
}

const headerSafe = (value: string) => /^[\x20-\x7E\x80-\xFF\t]*$/.test(value);

export const HTTP: Transport = {
  name: "HTTP",
  carries: headerSafe,
  open: (harness, authorization) => ({
    async run(query) {
      const response = await harness.graphql(query, undefined, {
        authorization: Buffer.from(authorization, "latin1").toString("latin1"),
      });
      return response.body as Seen;
    },
    isOpen: () => true,
    close: async () => undefined,
  }),
};

export const SSE: Transport = {
  name: "SSE",
  carries: headerSafe,
  open: (harness, authorization) => ({
    async run(query) {
      const stream = await subscribeSse(harness, "unused", authorization, query);
      await within(stream.finished, 15_000, "SSE answer still open");
      const [first] = payloads(stream.messages);
      if (first === undefined) throw new Error(`SSE stream without a result (${stream.status})`);
      return first as Seen;
    },
    isOpen: () => true,
    close: async () => undefined,
  }),
};

export const SSE_SINGLE_CONNECTION: Transport = {
  name: "graphql-sse single connection",
  carries: headerSafe,
  open(harness, authorization) {
    const client = createSseClient({
      url: `${harness.url}/graphql/stream`,
      singleConnection: true,
      // One stream, kept open between operations, as a dashboard's would be.
      lazy: false,
      headers: { authorization },
      retryAttempts: 0,
      // A refused reservation rejects the operation in `run`, which reads it; not a console line too.
      onNonLazyError: () => undefined,
    });
    return {
      async run(query) {
        const results: Seen[] = [];
        try {
          const iterate = (async () => {
            for await (const result of client.iterate({ query })) results.push(result as Seen);
          })();
          await within(iterate, 15_000, "graphql-sse operation still open");
        } catch (error) {
          // A stream refused at its reservation (PUT): the client hands over the response.
          const refused = (error as { response?: Response }).response;
          if (refused !== undefined) return (await refused.json()) as Seen;
          throw error;
        }
        const [first] = results;
        if (first === undefined) throw new Error("graphql-sse operation without a result");
        return first;
      },
      isOpen: () => true,
      close: async () => client.dispose(),
    };
  },
};

export const GRAPHQL_WS: Transport = {
  name: "graphql-ws",
  carries: () => true,
  open(harness, authorization) {
    let open = true;
    const client = createClient({
      url: `${harness.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: authorization },
      retryAttempts: 0,
      lazy: false,
      // A refused socket rejects the operation in `run`, which reads it; not a console line too.
      onNonLazyError: () => undefined,
      on: { closed: () => (open = false) },
    });
    return {
      async run(query) {
        const results: Seen[] = [];
        try {
          const iterate = (async () => {
            for await (const result of client.iterate({ query })) results.push(result as Seen);
          })();
          await within(iterate, 15_000, "graphql-ws operation still open");
        } catch (error) {
          // graphql-ws hands an `error` message to the client as the errors themselves.
          if (Array.isArray(error)) return { errors: error };
          // A socket refused at connection_init closes 4403 with the catalogue code as reason.
          const closed = error as { code?: number; reason?: string };
          const refused = /^([A-Z_]+): (.*)$/s.exec(closed.reason ?? "");
          if (closed.code === 4403 && refused) {
            return {
              errors: [{ message: refused[2] as string, extensions: { code: refused[1] } }],
            };
          }
          throw error;
        }
        const [first] = results;
        if (first === undefined) throw new Error("graphql-ws operation without a result");
        return first;
      },
      isOpen: () => open,
      close: () => client.dispose() as Promise<void>,
    };
  },
};

export const TRANSPORTS: readonly Transport[] = [HTTP, SSE, SSE_SINGLE_CONNECTION, GRAPHQL_WS];
