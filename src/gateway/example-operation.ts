/** The operation GraphiQL opens with: the organization, an agent page and live calls. */
export const EXAMPLE_OPERATION = `# voicegraph: the Voice AI Agent Platform as one GraphQL schema.
query Overview {
  organization {
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
        name
      }
    }
  }
}
`;
