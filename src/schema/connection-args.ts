import type { builder } from "./builder.ts";

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]["arg"];

/** Relay's four connection arguments, in the contract's order. */
export function connectionArgs(arg: ArgBuilder) {
  return {
    first: arg.int({ description: "Items from the start of the window (0 to 100)." }),
    after: arg.string({ description: "A cursor from this connection, with the same filters." }),
    last: arg.int({ description: "Items from the end of the window (0 to 100)." }),
    before: arg.string({ description: "A cursor from this connection, with the same filters." }),
  };
}

/** Forward-only arguments, for lists whose upstream pages with opaque cursors. */
export function forwardConnectionArgs(arg: ArgBuilder) {
  const { first, after } = connectionArgs(arg);
  return { first, after };
}
