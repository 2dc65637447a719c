import { afterEach } from "vitest";

export interface Closable {
  close(): unknown;
}

/**
 * For tests that start their own servers (a sandbox, an upstream, a gateway, a client): returns
 * `closing`, which gives back what it is passed and closes it once the test ends, the last
 * started first (a gateway before its upstream).
 */
export function closedAfterEachTest(): <T extends Closable>(resource: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    for (const resource of open.splice(0).reverse()) await resource.close();
  });
  return (resource) => {
    open.push(resource);
    return resource;
  };
}
