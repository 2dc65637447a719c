import type { IncomingMessage, ServerResponse } from "node:http";
import { isInitializeRequest, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { GraphQLSchema } from "graphql";
import { GATEWAY_DEFAULTS } from "../settings/defaults.ts";
import { corsFor } from "../transport/cors.ts";
import type { PathEndpoint } from "../transport/server.ts";
import { type Catalogue, createCatalogue, type ToolSource } from "./catalogue.ts";
import type { JsonSchema } from "./json-schemas.ts";
import { serveThroughTransport } from "./node-bridge.ts";
import { answerJson, readBody, refuse, requestIdOfMessage } from "./refusals.ts";
import type { GatewayFetch } from "./run-operation.ts";
import { createSchemaTools } from "./schema-tools.ts";
import { createSessionTable } from "./sessions.ts";

/** What the endpoint needs of the gateway (create-gateway.ts's Gateway has all of it). */
export interface McpGateway extends GatewayFetch {
  /** The local checks of a credential (its form; in session mode, the token's signature). */
  connectionRefusal(connectionParams: unknown): Promise<string | undefined>;
  /** The gateway's naming of a credential: sessions are bound to it. */
  keyHash(authorization: string): string;
}

export interface McpOptions {
  schema: GraphQLSchema;
  source: ToolSource;
  /** MCP_MUTATIONS: named mutations are tools too. */
  mutations: boolean;
  /** MCP_SCHEMA_TOOLS: `introspect`, `search`, `validate`, `execute`. */
  schemaTools: boolean;
  /** TRUSTED_DOCUMENTS_ONLY: `execute` is refused. */
  trustedOnly: boolean;
  /** Session mode's token rules (the RFC 9728 metadata names them); absent: passthrough. */
  session?: { issuer?: string | undefined; audience?: string | undefined };
  /** The origins /graphql allows (CORS_ORIGINS): any other Origin is refused. */
  corsOrigins: readonly string[];
  maxRequestBytes: number;
  maxSessions?: number;
  sessionIdleMs?: number;
  logger: { warn(...args: unknown[]): void };
  version: string;
}

/** What listen() routes to: the MCP endpoint and, in session mode, its RFC 9728 metadata. */
export type McpEndpoint = PathEndpoint;

export const MCP_PATH = "/mcp";
const METADATA_PATHS = [
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
];

export function createMcpEndpoint(gateway: McpGateway, options: McpOptions): McpEndpoint {
  const catalogue: Catalogue = createCatalogue(options.source, options.schema, {
    mutations: options.mutations,
    logger: options.logger,
  });
  // One compiled validator per schema object, shared by every session: schemas never change in place.
  const ajv = new AjvJsonSchemaValidator();
  const validators = new WeakMap<JsonSchema, JsonSchemaValidator<unknown>>();
  const validatorOf = (schema: JsonSchema) => {
    let validator = validators.get(schema);
    if (!validator) {
      validator = ajv.getValidator(schema as never);
      validators.set(schema, validator);
    }
    return validator;
  };
  const sessions = createSessionTable(
    {
      gateway,
      catalogue,
      validatorOf,
      schemaTools: options.schemaTools
        ? createSchemaTools(options.schema, gateway, options)
        : undefined,
      version: options.version,
    },
    options.sessionIdleMs ?? GATEWAY_DEFAULTS.mcpSessionIdleMs,
  );
  const maxSessions = options.maxSessions ?? GATEWAY_DEFAULTS.mcpMaxSessions;
  const allowedOrigin = corsFor(options.corsOrigins);
  const sessionMode = options.session !== undefined;

  const baseOf = (req: IncomingMessage) => `http://${req.headers.host ?? "localhost"}`;
  const metadataOf = (req: IncomingMessage) => ({
    resource: options.session?.audience ?? `${baseOf(req)}${MCP_PATH}`,
    ...(options.session?.issuer ? { authorization_servers: [options.session.issuer] } : {}),
    bearer_methods_supported: ["header"],
    resource_name: "voicegraph",
  });
  const challenge = (req: IncomingMessage) =>
    sessionMode
      ? `Bearer resource_metadata="${baseOf(req)}${METADATA_PATHS[1]}"`
      : 'Bearer realm="voicegraph"';

  return {
    handles: (pathname) =>
      pathname === MCP_PATH || (sessionMode && METADATA_PATHS.includes(pathname)),

    async serve(req, res, loggedOut) {
      const requestId = requestIdOfMessage(req);
      // listen() does not await its handlers: nothing here may reject.
      try {
        await serveMcp(req, res, requestId, loggedOut);
      } catch (error) {
        options.logger.warn("MCP request failed:", (error as Error).message);
        if (res.headersSent) res.destroy();
        else await refuse(res, "INTERNAL_SERVER_ERROR", "Unexpected error.", requestId);
      }
    },

    async close() {
      catalogue.close();
      await sessions.closeAll();
    },
  };

  async function serveMcp(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    loggedOut?: (authorization: string) => Promise<string | undefined>,
  ): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== MCP_PATH) {
      answerJson(res, metadataOf(req), requestId);
      return;
    }
    // DNS rebinding: a page of another origin may not drive the endpoint (403 before anything).
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      allowedOrigin({ headers: new Headers({ origin }) } as Request) === false
    ) {
      return refuse(
        res,
        "FORBIDDEN",
        `The origin ${origin} may not use /mcp (CORS_ORIGINS).`,
        requestId,
      );
    }
    const authorization = req.headers.authorization;
    const refusal = authorization
      ? ((await gateway.connectionRefusal({ Authorization: authorization })) ??
        (await loggedOut?.(authorization)))
      : "A key is required: send `Authorization`.";
    if (refusal !== undefined || authorization === undefined) {
      return refuse(res, "UNAUTHENTICATED", refusal ?? "A key is required.", requestId, {
        "www-authenticate": challenge(req),
      });
    }
    const credential = gateway.keyHash(authorization);
    let body: unknown;
    if (req.method === "POST") {
      const text = await readBody(req, options.maxRequestBytes);
      if (text === undefined) {
        return refuse(
          res,
          "PAYLOAD_TOO_LARGE",
          `The body is larger than ${options.maxRequestBytes} bytes.`,
          requestId,
        );
      }
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(res, "BAD_USER_INPUT", "The body is not JSON.", requestId);
      }
    }
    const id = req.headers["mcp-session-id"];
    if (typeof id !== "string") {
      if (req.method !== "POST" || !isInitializeRequest(body)) {
        return refuse(
          res,
          "BAD_USER_INPUT",
          "Send `Mcp-Session-Id`, or open a session with `initialize`.",
          requestId,
        );
      }
      if (sessions.size >= maxSessions) {
        return refuse(
          res,
          "RATE_LIMITED",
          "Too many MCP sessions are open: try again later.",
          requestId,
        );
      }
      const session = await sessions.open({
        authorization,
        credential,
        protocolVersion: body.params.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      });
      await serveThroughTransport(session.transport, req, res, body, requestId);
      // An initialize the SDK refused opened nothing: its server goes.
      if (session.transport.sessionId === undefined) await session.close();
      return;
    }
    const session = sessions.get(id);
    if (session === undefined) {
      return refuse(res, "NOT_FOUND", "No such MCP session (it ended): open a new one.", requestId);
    }
    // A session ID is no credential: the credential that opened the session, or nothing.
    if (session.credential !== credential) {
      return refuse(
        res,
        "FORBIDDEN",
        "This MCP session was opened with other credentials.",
        requestId,
      );
    }
    session.lastSeen = Date.now();
    if (req.method === "GET") {
      // The stream updates ride on: once it is gone, the session's idle time counts from then.
      session.streams += 1;
      res.once("close", () => {
        session.streams -= 1;
        session.lastSeen = Date.now();
      });
    }
    await serveThroughTransport(session.transport, req, res, body, requestId);
  }
}
