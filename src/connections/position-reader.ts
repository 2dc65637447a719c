import { ListFormChanged, type PositionAnswer, readListAnswer } from "./list-answer.ts";
import { planPositionRequests, type Window } from "./position-plan.ts";
import type { ListSource, UpstreamPageParams } from "./types.ts";

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
   * Makes sure the item at the window's anchor (`start`: its first, `end`: its last) and as many
   * of the rest as the upstream grants are read: one round of one or two requests, and a second
   * only if the first did not reach the anchor (another form answered, or a page size bound).
   */
  ensure(window: Window, anchor: "start" | "end"): Promise<void>;
}

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
    if (answer.total !== null) reader.knownEnd = answer.total;
    // Without a total, an answer shorter than asked is taken to end the list.
    else if (received < answer.asked) reader.knownEnd = answer.start + received;
    const moreRemain = answer.total !== null && answer.start + received < answer.total;
    if (received > 0 && received < answer.asked && moreRemain) bound = Math.min(bound, received);
    if (answer.granted !== null && answer.granted > 0 && answer.granted < answer.asked) {
      bound = Math.min(bound, answer.granted);
    }
  }

  function missing(window: Window): Window | undefined {
    const end = Math.min(window.end, reader.knownEnd);
    let first: number | undefined;
    let last = -1;
    for (let index = window.start; index < end; index += 1) {
      if (items.has(index)) continue;
      first ??= index;
      last = index;
    }
    return first === undefined ? undefined : { start: first, end: last + 1 };
  }

  async function fetchOnce(params: UpstreamPageParams): Promise<void> {
    const answer = readListAnswer<T>(await source.fetch(params), params);
    if (answer.form === "cursor") throw new ListFormChanged(answer, startOf(params) === 0);
    record(answer);
  }

  async function ensure(window: Window, anchor: "start" | "end"): Promise<void> {
    const anchorIndex = anchor === "start" ? window.start : window.end - 1;
    for (let pass = 0; pass < 2; pass += 1) {
      // After our own round, a run from the anchor is enough: the rest was bounded away.
      if (pass > 0 && items.has(anchorIndex)) return;
      const gap = missing(window);
      if (gap === undefined) return;
      if (gap.end - gap.start > bound) {
        if (anchor === "start") gap.end = gap.start + bound;
        else gap.start = gap.end - bound;
      }
      await Promise.all(planPositionRequests(reader.form, gap, bound).map(fetchOnce));
    }
  }

  if (seed) record(seed);
  return reader;
}

function startOf(params: UpstreamPageParams): number {
  if ("page" in params) return (params.page - 1) * params.pageSize;
  return "offset" in params ? params.offset : 0;
}
