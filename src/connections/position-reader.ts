import { type CursorAnswer, type PositionAnswer, readListAnswer } from "./list-answer.ts";
import { planPositionRequests, type Window } from "./position-plan.ts";
import type { ListSource, UpstreamPageParams } from "./types.ts";

/** The upstream answered a position request by cursor: the caller decides what follows. */
export interface FormSwitch<T> {
  answer: CursorAnswer<T>;
  /** The request started at the list's first item, so the answer is the list's first page. */
  fromListStart: boolean;
}

/**
 * Reads items of a position-form list by absolute index, remembering every item seen, so a later
 * window only fetches what is really missing.
 */
export interface PositionReader<T> {
  /** The form the upstream answers in (the requested one until an answer says otherwise). */
  readonly form: "page" | "offset";
  /** The latest answer's total: undefined before any answer, null when the upstream omits it. */
  readonly total: number | null | undefined;
  /** Where the list ends as far as the answers tell: the total, else where a short answer ended. */
  readonly knownEnd: number;
  item(index: number): { node: T } | undefined;
  /**
   * Reads the window from its anchor side (`start` or `end`) as far as the upstream grants: one
   * round of requests, and a second only if the first did not reach `needed` (default: the
   * anchor's own item) because of a page size bound. Returns the answer instead when the
   * upstream turned out to page by cursor.
   */
  ensure(
    window: Window,
    anchor: "start" | "end",
    needed?: number,
  ): Promise<FormSwitch<T> | undefined>;
}

/** Items a read may add to the client's window: one of overlap before it, one of look-ahead. */
export const READ_MARGIN = 2;

export function createPositionReader<T>(
  source: ListSource<T>,
  initialForm: "page" | "offset",
  maxSize: number,
  seed?: PositionAnswer<T>,
): PositionReader<T> {
  const items = new Map<number, T>();
  // An upstream that grants fewer items than asked (a tighter bound) is asked for no more.
  let bound = maxSize;
  const reader = {
    form: initialForm,
    total: undefined as number | null | undefined,
    knownEnd: Infinity,
    item: (index: number) => (items.has(index) ? { node: items.get(index) as T } : undefined),
    ensure,
  };

  function record(answer: PositionAnswer<T>): void {
    reader.form = answer.form;
    reader.total = answer.total;
    const received = answer.items.length;
    for (const [offset, node] of answer.items.entries()) items.set(answer.start + offset, node);
    // Without a total, an answer shorter than its page size (the one granted, when the upstream
    // says it used a smaller one) is taken to end the list.
    const size = Math.min(answer.asked, answer.granted ?? answer.asked);
    if (answer.total !== null) reader.knownEnd = answer.total;
    else if (received < size) reader.knownEnd = answer.start + received;
    const moreRemain = answer.total !== null && answer.start + received < answer.total;
    if (received > 0 && received < answer.asked && moreRemain) bound = Math.min(bound, received);
    if (answer.granted !== null && answer.granted < answer.asked) {
      bound = Math.min(bound, answer.granted);
    }
  }

  /** The smallest window holding every unread index; counts steps, so it ends for any window. */
  function missing(window: Window): Window | undefined {
    const size = Math.min(window.end, reader.knownEnd) - window.start;
    let first: number | undefined;
    let last = -1;
    for (let step = 0; step < size; step += 1) {
      const index = window.start + step;
      if (items.has(index)) continue;
      first ??= index;
      last = index;
    }
    return first === undefined ? undefined : { start: first, end: last + 1 };
  }

  async function fetchOnce(params: UpstreamPageParams): Promise<FormSwitch<T> | undefined> {
    const answer = readListAnswer<T>(await source.fetch(params), params, source.isItem);
    if (answer.form === "cursor") return { answer, fromListStart: startOf(params) === 0 };
    record(answer);
    return undefined;
  }

  async function ensure(window: Window, anchor: "start" | "end", needed?: number) {
    const anchorIndex = needed ?? (anchor === "start" ? window.start : window.end - 1);
    for (let pass = 0; pass < 2; pass += 1) {
      // After our own round, a run from the anchor is enough: the rest was bounded away.
      if (pass > 0 && items.has(anchorIndex)) return undefined;
      const gap = missing(window);
      if (gap === undefined) return undefined;
      // Overlap and look-ahead may pass the list's bound (two requests then); a tighter
      // endpoint bound is not passed at all.
      const limit = bound < maxSize ? bound : maxSize + READ_MARGIN;
      if (gap.end - gap.start > limit) {
        if (anchor === "start") gap.end = gap.start + limit;
        else gap.start = gap.end - limit;
      }
      const plan = planPositionRequests(reader.form, gap, bound);
      const switches = await Promise.all(plan.map(fetchOnce));
      const switched = switches.find((found) => found !== undefined);
      if (switched) return switched;
    }
    return undefined;
  }

  if (seed) record(seed);
  return reader;
}

function startOf(params: UpstreamPageParams): number {
  if ("page" in params) return (params.page - 1) * params.pageSize;
  return "offset" in params ? params.offset : 0;
}
