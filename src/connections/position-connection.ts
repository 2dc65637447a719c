import { invalidConnectionArgument } from "./errors.ts";
import type { PositionAnswer } from "./list-answer.ts";
import { type ListContext, pageInfoOf } from "./list-context.ts";
import { findMovedItem, type Mark } from "./moved-item.ts";
import type { Window } from "./position-plan.ts";
import { createPositionReader, type FormSwitch, type PositionReader } from "./position-reader.ts";
import type { Connection } from "./types.ts";

/**
 * The Relay range of a position-form list: items after `lo - 1` (the `after` index) and before
 * `before`; then `first` from its start and/or `last` from its end (at least one is set).
 * `afterMark`/`beforeMark` are the items the client's cursors point at, to be found again when
 * the list moved under them.
 */
export interface PositionRange {
  lo: number;
  before: number | null;
  first: number | null;
  last: number | null;
  afterMark?: Mark | null;
  beforeMark?: Mark | null;
}

/** A connection, or the upstream's cursor-form answer when the list turned out to page so. */
export type PositionResult<T> = { connection: Connection<T> } | { switched: FormSwitch<T> };

/**
 * Serves a page/pageSize or limit/offset list. One round of requests reads the window, widened
 * by the cursor's own item (overlap, to check the list did not move) and one item after it
 * (look-ahead, so hasNextPage is exact without a total). A second round is needed only when the
 * window depends on a total learnt from the first (`last` without `before`, or a `before` beyond
 * the list's end) or when the list moved under the cursor (moved-item.ts).
 */
export async function resolvePositionConnection<T>(
  list: ListContext<T>,
  form: "page" | "offset",
  initialRange: PositionRange,
  seed?: PositionAnswer<T>,
): Promise<PositionResult<T>> {
  const reader = createPositionReader(list.source, form, list.maxSize, seed);
  // `first` reads forward from the range start (then Relay's `last` trims it); `last` alone
  // reads back from the range end. The cursor on that side is the one checked.
  const anchor = initialRange.first !== null ? "start" : "end";
  const markOf = (range: PositionRange) =>
    anchor === "start" ? range.afterMark : range.beforeMark;
  const read = async (range: PositionRange, total: number | null | undefined) => {
    const window = windowFor(range, total);
    // A total already known (from an earlier answer) tells hasNextPage: no look-ahead then.
    const lookAhead = anchor === "start" && typeof reader.total !== "number";
    const mark = markOf(range) ?? null;
    const widened = widen(window, mark, anchor, lookAhead);
    // Going forward the window's first item must be reached (the cursor's own item comes
    // before it); going back, the cursor's own item and the window's last item.
    const end = mark ? mark.position : Math.max(window.start, window.end - 1);
    const needed = anchor === "start" ? window.start : end;
    return { window, switched: await reader.ensure(widened, anchor, needed) };
  };

  let range = initialRange;
  let first = await read(range, undefined);
  if (first.switched) return { switched: first.switched };
  const moved = await findMovedItem(list, reader, markOf(range) ?? null, first.window);
  if (moved !== 0) {
    range = shift(range, moved);
    first = await read(range, undefined);
    if (first.switched) return { switched: first.switched };
  }
  if (anchor === "end" && range.before === null && reader.total == null) {
    throw invalidConnectionArgument(
      `\`last\` without \`before\` needs the ${list.source.name} list's total, which the upstream ` +
        "does not report: page with `first`/`after` instead",
    );
  }
  // Going forward, the total only cuts the window's end: what was read already covers it.
  const window = windowFor(range, reader.total);
  if (
    anchor === "end" &&
    (window.start !== first.window.start || window.end !== first.window.end)
  ) {
    const second = await read(range, reader.total);
    if (second.switched) return { switched: second.switched };
  }
  // Without a total, an endpoint's tighter bound may have kept the look-ahead item away: read it
  // alone, since hasNextPage must stay exact.
  const run = receivedRun(reader, window, anchor);
  const end = run.start + run.nodes.length;
  if (typeof reader.total !== "number" && !reader.item(end) && end < reader.knownEnd) {
    const switched = await reader.ensure({ start: end, end: end + 1 }, "start");
    if (switched) return { switched };
  }
  return { connection: connectionOf(list, reader, range, run) };
}

/** The page of the run read, `last` applied after `first` (Relay), with exact page info. */
function connectionOf<T>(
  list: ListContext<T>,
  reader: PositionReader<T>,
  range: PositionRange,
  run: { start: number; nodes: T[] },
): Connection<T> {
  if (range.first !== null && range.last !== null && run.nodes.length > range.last) {
    run.start += run.nodes.length - range.last;
    run.nodes = run.nodes.slice(run.nodes.length - range.last);
  }
  const { start, nodes } = run;
  const end = start + nodes.length;
  const total = reader.total ?? null;
  const form = reader.form;
  const edges = nodes.map((node, offset) => list.positionEdge(node, form, start + offset));
  return {
    edges,
    pageInfo: pageInfoOf(edges, {
      // Items after the window anywhere in the list (`before`'s own item included, as
      // hasPreviousPage looks before it): the total tells, else the look-ahead item does.
      hasNextPage: reader.item(end) !== undefined || end < reader.knownEnd,
      hasPreviousPage: Math.min(start, total ?? start) > 0,
    }),
    totalCount: total,
  };
}

/**
 * The read: the window, the checked cursor's item beside it, and one item of look-ahead going
 * forward; never empty, since the total and hasNextPage must be exact even for `first: 0`.
 */
function widen(
  window: Window,
  mark: Mark | null,
  anchor: "start" | "end",
  lookAhead: boolean,
): Window {
  if (anchor === "start") {
    const start = mark ? Math.min(window.start, mark.position) : window.start;
    const end = lookAhead || window.end === window.start ? window.end + 1 : window.end;
    return { start, end };
  }
  const end = Math.max(window.end, mark ? mark.position + 1 : window.start + 1);
  return { start: window.start, end };
}

function shift(range: PositionRange, by: number): PositionRange {
  const move = (mark: Mark | null | undefined) =>
    mark ? { ...mark, position: mark.position + by } : mark;
  return {
    ...range,
    lo: range.afterMark ? range.lo + by : range.lo,
    before: range.before === null || !range.beforeMark ? range.before : range.before + by,
    afterMark: move(range.afterMark),
    beforeMark: move(range.beforeMark),
  };
}

/**
 * The window to serve once the total is known (`total` undefined: before any answer). `first`
 * counts from `lo`; `last` alone counts back from `before` or the list's end, and with neither
 * known yet the first round reads `last` items from `lo` to learn the total.
 */
function windowFor(range: PositionRange, total: number | null | undefined): Window {
  const { lo, first, last } = range;
  const hi = Math.max(lo, Math.min(range.before ?? Infinity, total ?? Infinity));
  if (first !== null) return { start: lo, end: Math.min(lo + first, hi) };
  const size = last ?? 0;
  if (hi === Infinity) return { start: lo, end: lo + size };
  return { start: Math.max(lo, hi - size), end: hi };
}

/**
 * The items actually received, as one unbroken run from the anchor: a tighter upstream bound may
 * leave it shorter than the window, never with a hole. Both loops step at most the window's size.
 */
function receivedRun<T>(reader: PositionReader<T>, window: Window, anchor: "start" | "end") {
  const nodes: T[] = [];
  const size = window.end - window.start;
  if (anchor === "start") {
    for (let step = 0; step < size; step += 1) {
      const found = reader.item(window.start + step);
      if (!found) break;
      nodes.push(found.node);
    }
    return { start: window.start, nodes };
  }
  for (let step = 1; step <= size; step += 1) {
    const found = reader.item(window.end - step);
    if (!found) break;
    nodes.unshift(found.node);
  }
  return { start: window.end - nodes.length, nodes };
}
