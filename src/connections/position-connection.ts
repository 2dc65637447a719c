import { invalidConnectionArgument } from "./errors.ts";
import type { PositionAnswer } from "./list-answer.ts";
import type { ListContext } from "./list-context.ts";
import type { Window } from "./position-plan.ts";
import { createPositionReader, type PositionReader } from "./position-reader.ts";
import type { Connection } from "./types.ts";

/**
 * The Relay range of a position-form list: items after `lo - 1` (the `after` index) and before
 * `before`; then `first` from its start and/or `last` from its end (at least one is set).
 */
export interface PositionRange {
  lo: number;
  before: number | null;
  first: number | null;
  last: number | null;
}

/**
 * Serves a page/pageSize or limit/offset list. One round of requests reads the window; a second
 * round is needed only when the window depends on a total learnt from the first (`last` without
 * `before`, or a `before` beyond the list's current end).
 */
export async function resolvePositionConnection<T>(
  list: ListContext<T>,
  form: "page" | "offset",
  range: PositionRange,
  seed?: PositionAnswer<T>,
): Promise<Connection<T>> {
  const reader = createPositionReader(list.source, form, list.maxSize, seed);
  // `first` reads forward from the range start (then Relay's `last` trims it); `last` alone
  // reads back from the range end.
  const anchor = range.first !== null ? "start" : "end";
  const firstWindow = windowFor(range, undefined);
  // An empty window still reads one item: the total and hasNextPage must be exact.
  const probe = { start: firstWindow.start, end: firstWindow.start + 1 };
  const isEmpty = firstWindow.end <= firstWindow.start;
  await reader.ensure(isEmpty ? probe : firstWindow, isEmpty ? "start" : anchor);
  if (anchor === "end" && range.before === null && reader.total == null) {
    throw invalidConnectionArgument(
      `\`last\` without \`before\` needs the ${list.source.name} list's total, which the upstream ` +
        "does not report: page with `first`/`after` instead",
    );
  }
  const window = windowFor(range, reader.total);
  const moved = window.start !== firstWindow.start || window.end !== firstWindow.end;
  if (moved && window.end > window.start) await reader.ensure(window, anchor);

  const run = receivedRun(reader, window, anchor);
  if (range.first !== null && range.last !== null && run.nodes.length > range.last) {
    run.start += run.nodes.length - range.last;
    run.nodes = run.nodes.slice(run.nodes.length - range.last);
  }
  const { start, nodes } = run;
  const end = start + nodes.length;
  const total = reader.total ?? null;

  const edges = nodes.map((node, offset) => ({
    cursor: list.issue({ form: reader.form, position: start + offset }),
    node,
  }));
  return {
    edges,
    pageInfo: {
      // Items after the window anywhere in the list (`before`'s own item included), as
      // hasPreviousPage looks before it: exact with a total. Without one, an answer as long as
      // asked is taken to mean more may follow (the seed's forms all report a total).
      hasNextPage: end < reader.knownEnd,
      hasPreviousPage: Math.min(start, total ?? start) > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: total,
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
 * leave it shorter than the window, never with a hole.
 */
function receivedRun<T>(reader: PositionReader<T>, window: Window, anchor: "start" | "end") {
  const nodes: T[] = [];
  if (anchor === "start") {
    for (let index = window.start; index < window.end; index += 1) {
      const found = reader.item(index);
      if (!found) break;
      nodes.push(found.node);
    }
    return { start: window.start, nodes };
  }
  let start = window.end;
  while (start > window.start) {
    const found = reader.item(start - 1);
    if (!found) break;
    nodes.unshift(found.node);
    start -= 1;
  }
  return { start, nodes };
}
