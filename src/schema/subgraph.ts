// First: every type is defined, and the public schema built, before anything here runs.
import "./index.ts";
import DirectivesPlugin from "@pothos/plugin-directives";
import FederationPlugin from "@pothos/plugin-federation";
import {
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  getNamedType,
  isUnionType,
} from "graphql";
import { badUserInput } from "../errors.ts";
import { Agent } from "./agent.ts";
import { builder, encodeNodeId } from "./builder.ts";
import { Campaign } from "./campaign.ts";
import { Contact } from "./contact.ts";
import { Conversation } from "./conversation.ts";
import { CONVERSATION_BY_ID_CALLS } from "./conversation-by-id.ts";
import { SUBGRAPH_DIRECTIVES } from "./directives.ts";
import { Document } from "./document.ts";
import { assertId, type IdKind } from "./ids.ts";
import { assertCostsDeclared } from "./keyless-fields.ts";
import { loadNode } from "./node.ts";
import { addPluginsAfterBuild } from "./pothos-plugins-after-build.ts";
import { PropertyDefinition } from "./property-definition.ts";
import { resolveNodeIdsAtOnce } from "./sync-ids.ts";

/** The Federation 2 version the subgraph's `@link` names. */
export const FEDERATION_LINK = "https://specs.apollo.dev/federation/v2.6";

type EntityRef = Parameters<typeof builder.asEntity>[0];

/**
 * Every node type with an ID prefix is an entity keyed by that ID, and a router's
 * representation is loaded as `nodes(ids:)` loads it: the same loaders, batched per operation.
 */
function nodeEntity(ref: EntityRef, kind: IdKind) {
  builder.asEntity(ref, {
    key: builder.selection<{ id: string }>("id"),
    // A promise per entity, never a throw: a bad representation fails its own entity only.
    resolveReference: async (reference, context) =>
      loadNode(representationId(kind, reference), context) as never,
  });
}

function representationId(kind: IdKind, reference: { id?: unknown }): string {
  if (typeof reference.id !== "string") {
    throw badUserInput("A representation needs its `id`, a string.", {
      argument: "representations",
    });
  }
  return assertId(kind, reference.id, "representations");
}

// Federation's plugins load @apollo/subgraph (about 3 MB of heap, 8 MB resident): this module
// is loaded only when a subgraph is asked for, and the public schema is built without them.
addPluginsAfterBuild(builder, [DirectivesPlugin, FederationPlugin]);
nodeEntity(Agent, "agent");
nodeEntity(Contact, "contact");
nodeEntity(Conversation, "conversation");
nodeEntity(Campaign, "campaign");
nodeEntity(PropertyDefinition, "property");
nodeEntity(Document, "document");

/**
 * The public schema plus `_service` and `_entities`, served with FEDERATION=on (docs/federation.md)
 * in place of the public one.
 */
export const subgraphSchema = buildSubgraphSchema();

function buildSubgraphSchema(): GraphQLSchema {
  const schema = builder.toSubGraphSchema({
    directives: SUBGRAPH_DIRECTIVES,
    linkUrl: FEDERATION_LINK,
    federationDirectives: ["@key"],
  });
  const entities = schema.getQueryType()?.getFields()._entities as
    | { -readonly [K in keyof GraphQLField<unknown, unknown>]: GraphQLField<unknown, unknown>[K] }
    | undefined;
  const service = schema.getQueryType()?.getFields()._service as typeof entities;
  if (entities === undefined || service === undefined) {
    throw new Error("the subgraph schema has no _entities or _service field");
  }
  // The SDL is the gateway's own: no call.
  service.extensions = { ...service.extensions, upstreamCalls: 0 };
  // The cost limit counts a batch of representations as `nodes` counts its IDs.
  entities.extensions = {
    ...entities.extensions,
    upstreamCalls: { perItemOf: "representations", each: CONVERSATION_BY_ID_CALLS.upstreamCalls },
  };
  entities.resolve = entitiesPerRepresentation(entities);
  return assertCostsDeclared(resolveNodeIdsAtOnce(schema, encodeNodeId));
}

type Resolver = GraphQLFieldResolver<unknown, unknown>;

/**
 * @apollo/subgraph's `_entities` throws for the whole batch when one representation names no
 * entity (or is no object), nulling every entity beside it as an unexpected error. A
 * representation is judged here first: a bad one fails its own entity alone, with no call.
 */
function entitiesPerRepresentation(entities: GraphQLField<unknown, unknown>): Resolver {
  const resolveBatch = entities.resolve;
  const union = getNamedType(entities.type);
  if (resolveBatch === undefined || !isUnionType(union)) {
    throw new Error("the subgraph's _entities has no resolver over its _Entity union");
  }
  const entityNames = new Set(union.getTypes().map((type) => type.name));
  return async (source, args: { representations?: unknown }, context, info) => {
    const representations = Array.isArray(args.representations) ? args.representations : [];
    const problems = representations.map((r) => representationProblem(r, entityNames));
    const good = representations.filter((_, index) => problems[index] === undefined);
    const answered = good.length
      ? ((await resolveBatch(
          source,
          { ...args, representations: good },
          context,
          info,
        )) as unknown[])
      : [];
    let next = 0;
    return problems.map((problem) =>
      problem === undefined
        ? answered[next++]
        : Promise.reject(badUserInput(problem, { argument: "representations" })),
    );
  };
}

function representationProblem(
  representation: unknown,
  entityNames: ReadonlySet<string>,
): string | undefined {
  if (
    typeof representation !== "object" ||
    representation === null ||
    Array.isArray(representation)
  ) {
    return "A representation must be an object: `{ __typename, id }`.";
  }
  const { __typename } = representation as { __typename?: unknown };
  if (typeof __typename !== "string" || !entityNames.has(__typename)) {
    return `A representation's \`__typename\` must name an entity: ${[...entityNames].join(", ")}.`;
  }
  return undefined;
}
