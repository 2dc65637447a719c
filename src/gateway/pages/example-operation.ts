import type { GraphQLSchema } from "graphql";

/**
 * The operations GraphiQL opens with: an overview that finds live calls (new ones keep starting,
 * so there is always one), the live calls list kept current (`@live`: calls keep starting and
 * ending), and a subscription to follow one of them by the ID it answered. Every node selects its
 * `id`, so client caches key it.
 */
export const EXAMPLE_OPERATION = `# voicegraph: the Voice AI Agent Platform as one GraphQL schema.
# Run Overview; run LiveCalls and watch calls start and end (@live keeps any query current);
# paste a live call's id into the variables pane as {"id": "cnv_…"} and run FollowCall.
query Overview {
  organization {
    id
    name
    timezone
  }
  agents(first: 3) {
    totalCount
    nodes {
      id
      name
      status
      voiceConfigs {
        id
        label
        language
        isDefault
      }
    }
  }
  conversations(first: 5, filter: { status: IN_PROGRESS }) {
    nodes {
      id
      duration
      channel
      agent {
        id
        name
      }
    }
  }
}

query LiveCalls @live {
  conversations(first: 10, filter: { status: IN_PROGRESS }) {
    totalCount
    nodes {
      id
      startedAt
      agent {
        id
        name
      }
    }
  }
}

subscription FollowCall($id: ID!) {
  conversationStatus(id: $id) {
    conversation {
      id
      status
    }
    duration
    ended
  }
}
`;

/**
 * The example GraphiQL opens with, valid against the schema served: a subgraph (FEDERATION=on)
 * leaves `@live` out, since a router serves a supergraph's operations, so its LiveCalls is a
 * plain query there.
 */
export function exampleOperationFor(schema: GraphQLSchema): string {
  if (schema.getDirective("live")) return EXAMPLE_OPERATION;
  return EXAMPLE_OPERATION.replace("query LiveCalls @live {", "query LiveCalls {").replace(
    " (@live keeps any query current)",
    "",
  );
}
