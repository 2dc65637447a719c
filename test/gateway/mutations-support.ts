import { harness, NO_NEW_CALLS, oneHarnessPerTest } from "./file-harness.ts";
import type { GraphQLResponse } from "./harness.ts";

// What the mutation tests share: what reached the sandbox, the errors as the contract fixes
// them, and Acme's organization as seeded.

/** Every test writes: each gets its own freshly seeded sandbox, where no new live call starts. */
export function seededHarnessPerTest(): void {
  oneHarnessPerTest(NO_NEW_CALLS);
}

/** What reached the sandbox: "METHOD /path", the parsed JSON body, and the status answered. */
export function upstreamCalls(): Array<[string, unknown, number]> {
  const calls = harness.sandbox.requests.map((request): [string, unknown, number] => [
    `${request.method} ${request.url}`,
    request.body,
    request.status,
  ]);
  harness.sandbox.clearRequests();
  return calls;
}

/** The error list reduced to what the contract fixes: path and `extensions.code`. */
export function errorCodes(response: GraphQLResponse<unknown>) {
  return response.body.errors?.map((error) => [error.path, error.extensions?.code]);
}
