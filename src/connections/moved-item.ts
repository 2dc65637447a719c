import { cursorItemLost } from "./errors.ts";
import type { ListContext } from "./list-context.ts";
import type { Window } from "./position-plan.ts";
import type { PositionReader } from "./position-reader.ts";

/** The item a position cursor points at: where it was, and its ID. */
export interface Mark {
  position: number;
  id: string;
}

/**
 * How far the cursor's item moved since the cursor was issued (0: still in place), found among
 * the items read around the window, else in one bounded extra read after them (new items at the
 * top of a newest-first list push it down). CURSOR_EXPIRED when it is not found: paging on from
 * the old position would repeat or skip items.
 */
export async function findMovedItem<T>(
  list: ListContext<T>,
  reader: PositionReader<T>,
  mark: Mark | null,
  window: Window,
): Promise<number> {
  if (mark === null) return 0;
  const here = reader.item(mark.position);
  if (here && list.source.itemId(here.node) === mark.id) return 0;
  const near = {
    start: Math.max(0, Math.min(mark.position, window.start) - list.maxSize),
    end: Math.max(mark.position, window.end) + list.maxSize + 1,
  };
  let found = search(list, reader, mark.id, near);
  const extra = { start: Math.max(mark.position, window.end) + 1, end: near.end };
  if (found === undefined && extra.start < reader.knownEnd) {
    const switched = await reader.ensure(extra, "start");
    if (switched === undefined) found = search(list, reader, mark.id, near);
  }
  if (found === undefined) throw cursorItemLost(list.source.name);
  return found - mark.position;
}

/** The index of the item with this ID among those read in the window; at most its size steps. */
function search<T>(list: ListContext<T>, reader: PositionReader<T>, id: string, window: Window) {
  for (let index = window.start; index < window.end; index += 1) {
    const found = reader.item(index);
    if (found && list.source.itemId(found.node) === id) return index;
  }
  return undefined;
}
