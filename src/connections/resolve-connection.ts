import { UpstreamUnavailableError } from "../upstream/errors.ts";
import type { CursorPlace } from "./cursor.ts";
import { type CursorResume, resolveCursorConnection } from "./cursor-connection.ts";
import { cursorOutlivedListForm, forwardOnlyList, invalidConnectionArgument } from "./errors.ts";
import { ListFormChanged } from "./list-answer.ts";
import { createListContext, type ListContext } from "./list-context.ts";
import { type PositionRange, resolvePositionConnection } from "./position-connection.ts";
import {
  type Connection,
  type ConnectionArgs,
  DEFAULT_MAX_SIZE,
  type ListSource,
} from "./types.ts";
import { validateConnectionArgs } from "./validate-args.ts";

/**
 * Turns Relay arguments into upstream list requests and the answers into a Relay connection.
 * The form comes from the client's cursor when it has one, else from the list's assumption;
 * when an answer shows another form, the other form's resolver carries on from that answer.
 */
export async function resolveConnection<T>(
  source: ListSource<T>,
  args: ConnectionArgs,
): Promise<Connection<T>> {
  const maxSize = source.maxSize ?? DEFAULT_MAX_SIZE;
  validateConnectionArgs(args, { maxSize });
  const list = createListContext(source, maxSize);
  const after = args.after != null ? list.verify(args.after, "after") : null;
  const before = args.before != null ? list.verify(args.before, "before") : null;
  const defaultSize = Math.min(source.defaultSize, maxSize);

  const form = after?.form ?? before?.form ?? source.assumedForm;
  if (form === "cursor") {
    if (args.last != null || before !== null) throw forwardOnlyList(source.name);
    const from: CursorResume = after?.form === "cursor" ? after : { upstreamCursor: null, skip: 0 };
    return cursorThenPosition(list, from, args.first ?? defaultSize, after !== null);
  }
  if (before?.form === "cursor") {
    throw invalidConnectionArgument(
      "`after` and `before` come from different page forms of this list",
    );
  }
  // With neither `first` nor `last`, the page runs from the cursor given: back from a lone
  // `before`, forward otherwise.
  const impliedLast = args.first == null && args.last == null && before !== null && after === null;
  const range: PositionRange = {
    lo: after === null ? 0 : positionOf(after) + 1,
    before: before === null ? null : positionOf(before),
    first: args.first ?? (args.last == null && !impliedLast ? defaultSize : null),
    last: args.last ?? (impliedLast ? defaultSize : null),
  };
  return positionThenCursor(list, form, range, after !== null);
}

async function cursorThenPosition<T>(
  list: ListContext<T>,
  from: CursorResume,
  size: number,
  hasAfter: boolean,
): Promise<Connection<T>> {
  try {
    return await resolveCursorConnection(list, from, size, hasAfter);
  } catch (error) {
    if (!(error instanceof ListFormChanged)) throw error;
    const answer = error.answer as ListFormChanged<T>["answer"];
    if (answer.form === "cursor") throw error;
    // An upstream cursor the list ignored: nothing tells where the client was.
    if (!error.fromListStart) throw cursorOutlivedListForm(list.source.name);
    const range = { lo: from.skip, before: null, first: size, last: null };
    return settle(resolvePositionConnection(list, answer.form, range, answer));
  }
}

async function positionThenCursor<T>(
  list: ListContext<T>,
  form: "page" | "offset",
  range: PositionRange,
  hasAfter: boolean,
): Promise<Connection<T>> {
  try {
    return await resolvePositionConnection(list, form, range);
  } catch (error) {
    if (!(error instanceof ListFormChanged)) throw error;
    const answer = error.answer as ListFormChanged<T>["answer"];
    if (answer.form !== "cursor") throw error;
    if (range.last !== null || range.before !== null) throw forwardOnlyList(list.source.name);
    if (!error.fromListStart || range.first === null || range.lo > 0) {
      throw cursorOutlivedListForm(list.source.name);
    }
    const from = { upstreamCursor: null, skip: 0 };
    return settle(resolveCursorConnection(list, from, range.first, hasAfter, answer));
  }
}

/** After one change of form the upstream must stay in it; flipping again is its fault. */
async function settle<T>(resolution: Promise<Connection<T>>): Promise<Connection<T>> {
  try {
    return await resolution;
  } catch (error) {
    if (!(error instanceof ListFormChanged)) throw error;
    throw new UpstreamUnavailableError(
      "INVALID_RESPONSE",
      "The upstream list answered in different page forms within one request",
      { cause: error },
    );
  }
}

function positionOf(place: CursorPlace): number {
  // Callers reach here only with position-form cursors; the cursor branch returned earlier.
  return place.form === "cursor" ? 0 : place.position;
}
