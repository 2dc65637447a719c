import type { GraphQLField } from "graphql";

/**
 * The extension of a field whose value the gateway itself mints (its signed cursors): no
 * upstream text reaches it as is, so session mode's answer redaction leaves it whole; a
 * rewritten cursor would no longer be one this gateway issued.
 */
export const GATEWAY_ISSUED = { gatewayIssued: true } as const;

export function isGatewayIssued(field: GraphQLField<unknown, unknown>): boolean {
  return field.extensions.gatewayIssued === true;
}
