import { UpstreamUnavailableError } from "../upstream/errors.ts";
import type { CursorPlace } from "./cursor.ts";
import { type CursorResume, resolveCursorConnection } from "./cursor-connection.ts";
import { cursorOutlivedListForm, forwardOnlyList, invalidConnectionArgument } from "./errors.ts";
import { createListContext, type ListContext } from "./list-context.ts";
import type { Mark } from "./moved-item.ts";
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
 * when an answer shows another form, each form's resolver returns it as a value and the other
 * form's resolver carries on from that answer.
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
    afterMark: markOf(after),
    beforeMark: markOf(before),
  };
  return positionThenCursor(list, form, range, after !== null);
}

async function cursorThenPosition<T>(
  list: ListContext<T>,
  from: CursorResume,
  size: number,
  hasAfter: boolean,
): Promise<Connection<T>> {
  const result = await resolveCursorConnection(list, from, size, hasAfter);
  if ("connection" in result) return result.connection;
  const { answer, fromListStart } = result.switched;
  // An upstream cursor the list ignored: nothing tells where the client was.
  if (!fromListStart) throw cursorOutlivedListForm(list.source.name);
  const range = { lo: from.skip, before: null, first: size, last: null };
  const position = await resolvePositionConnection(list, answer.form, range, answer);
  if ("connection" in position) return position.connection;
  throw formFlipped();
}

async function positionThenCursor<T>(
  list: ListContext<T>,
  form: "page" | "offset",
  range: PositionRange,
  hasAfter: boolean,
): Promise<Connection<T>> {
  const result = await resolvePositionConnection(list, form, range);
  if ("connection" in result) return result.connection;
  const { answer, fromListStart } = result.switched;
  if (range.last !== null || range.before !== null) throw forwardOnlyList(list.source.name);
  if (!fromListStart || range.first === null || range.lo > 0) {
    throw cursorOutlivedListForm(list.source.name);
  }
  const from = { upstreamCursor: null, skip: 0 };
  const cursor = await resolveCursorConnection(list, from, range.first, hasAfter, answer);
  if ("connection" in cursor) return cursor.connection;
  throw formFlipped();
}

/** After one change of form the upstream must stay in it; flipping again is its fault. */
function formFlipped() {
  return new UpstreamUnavailableError(
    "INVALID_RESPONSE",
    "The upstream list answered in different page forms within one request",
  );
}

function markOf(place: CursorPlace | null): Mark | null {
  if (place === null || place.form === "cursor" || place.id === null) return null;
  return { position: place.position, id: place.id };
}

function positionOf(place: CursorPlace): number {
  // Callers reach here only with position-form cursors; the cursor branch returned earlier.
  return place.form === "cursor" ? 0 : place.position;
}
