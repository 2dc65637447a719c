import { type CursorKey, decodeCursor } from "./cursor.ts";
import { forwardOnlyList, invalidConnectionArgument } from "./errors.ts";
import { type ConnectionArgs, DEFAULT_MAX_SIZE } from "./types.ts";

/**
 * Synchronous checks that need no upstream call; the gateway's cost check may run them early and
 * `resolveConnection` runs them again. `forwardOnly` is for lists paged by upstream cursor.
 * Given the `cursorKey`, a cursor this gateway could not have issued (garbage, forged) is refused
 * here too; whether it belongs to this list is judged later, where the list's identity is known.
 */
export function validateConnectionArgs(
  args: ConnectionArgs,
  options: { forwardOnly?: boolean; maxSize?: number; cursorKey?: CursorKey },
): void {
  const maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  checkSize("first", args.first, maxSize);
  checkSize("last", args.last, maxSize);
  if (options.forwardOnly && (args.last != null || args.before != null)) {
    throw forwardOnlyList();
  }
  if (options.cursorKey !== undefined) {
    if (typeof args.after === "string") decodeCursor(options.cursorKey, args.after, "after");
    if (typeof args.before === "string") decodeCursor(options.cursorKey, args.before, "before");
  }
}

function checkSize(name: "first" | "last", value: number | null | undefined, maxSize: number) {
  if (value == null) return;
  if (!Number.isInteger(value) || value < 0 || value > maxSize) {
    throw invalidConnectionArgument(
      `\`${name}\` must be between 0 and ${maxSize}, got ${value}`,
      name,
    );
  }
}
