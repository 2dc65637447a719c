/* eslint-disable */
import * as types from './graphql.ts';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query Organization {\n  organization {\n    name\n    description\n    url\n    industry\n    country\n    city\n    telephone\n    email\n    timezone\n    raw\n  }\n}\n\nquery AgentWithVoiceConfigs($id: ID!) {\n  agent(id: $id) {\n    id\n    name\n    primaryLanguage\n    status\n    systemPrompt\n    greeting\n    model\n    metadata\n    createdAt\n    updatedAt\n    supportedLanguages\n    voiceConfigs {\n      id\n      voiceId\n      language\n      label\n      settings\n      isDefault\n    }\n  }\n}\n\nquery ConversationsWithAgents($first: Int, $after: String, $filter: ConversationFilter) {\n  conversations(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        id\n        status\n        direction\n        channel\n        startedAt\n        agent {\n          id\n          name\n        }\n      }\n    }\n  }\n}\n\nquery CampaignPage($first: Int, $after: String) {\n  campaigns(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    nodes {\n      id\n      name\n      status\n      failedRows\n    }\n  }\n}": typeof types.OrganizationDocument,
};
const documents: Documents = {
    "query Organization {\n  organization {\n    name\n    description\n    url\n    industry\n    country\n    city\n    telephone\n    email\n    timezone\n    raw\n  }\n}\n\nquery AgentWithVoiceConfigs($id: ID!) {\n  agent(id: $id) {\n    id\n    name\n    primaryLanguage\n    status\n    systemPrompt\n    greeting\n    model\n    metadata\n    createdAt\n    updatedAt\n    supportedLanguages\n    voiceConfigs {\n      id\n      voiceId\n      language\n      label\n      settings\n      isDefault\n    }\n  }\n}\n\nquery ConversationsWithAgents($first: Int, $after: String, $filter: ConversationFilter) {\n  conversations(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        id\n        status\n        direction\n        channel\n        startedAt\n        agent {\n          id\n          name\n        }\n      }\n    }\n  }\n}\n\nquery CampaignPage($first: Int, $after: String) {\n  campaigns(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    nodes {\n      id\n      name\n      status\n      failedRows\n    }\n  }\n}": types.OrganizationDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Organization {\n  organization {\n    name\n    description\n    url\n    industry\n    country\n    city\n    telephone\n    email\n    timezone\n    raw\n  }\n}\n\nquery AgentWithVoiceConfigs($id: ID!) {\n  agent(id: $id) {\n    id\n    name\n    primaryLanguage\n    status\n    systemPrompt\n    greeting\n    model\n    metadata\n    createdAt\n    updatedAt\n    supportedLanguages\n    voiceConfigs {\n      id\n      voiceId\n      language\n      label\n      settings\n      isDefault\n    }\n  }\n}\n\nquery ConversationsWithAgents($first: Int, $after: String, $filter: ConversationFilter) {\n  conversations(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        id\n        status\n        direction\n        channel\n        startedAt\n        agent {\n          id\n          name\n        }\n      }\n    }\n  }\n}\n\nquery CampaignPage($first: Int, $after: String) {\n  campaigns(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    nodes {\n      id\n      name\n      status\n      failedRows\n    }\n  }\n}"): (typeof documents)["query Organization {\n  organization {\n    name\n    description\n    url\n    industry\n    country\n    city\n    telephone\n    email\n    timezone\n    raw\n  }\n}\n\nquery AgentWithVoiceConfigs($id: ID!) {\n  agent(id: $id) {\n    id\n    name\n    primaryLanguage\n    status\n    systemPrompt\n    greeting\n    model\n    metadata\n    createdAt\n    updatedAt\n    supportedLanguages\n    voiceConfigs {\n      id\n      voiceId\n      language\n      label\n      settings\n      isDefault\n    }\n  }\n}\n\nquery ConversationsWithAgents($first: Int, $after: String, $filter: ConversationFilter) {\n  conversations(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        id\n        status\n        direction\n        channel\n        startedAt\n        agent {\n          id\n          name\n        }\n      }\n    }\n  }\n}\n\nquery CampaignPage($first: Int, $after: String) {\n  campaigns(first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    nodes {\n      id\n      name\n      status\n      failedRows\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;