import { type CursorPlace, decodeCursor, encodeCursor, listDigest } from "./cursor.ts";
import { cursorMismatch } from "./errors.ts";
import type { ListSource, PageForm } from "./types.ts";

/** One list as one resolution sees it: its source, size bound and cursor issuing/checking. */
export interface ListContext<T> {
  source: ListSource<T>;
  maxSize: number;
  /** A gateway cursor for this list, these filters and the place's form. */
  issue(place: CursorPlace): string;
  /** Decodes a client cursor; CURSOR_MISMATCH when it belongs to another list or filters. */
  verify(raw: string, argument: "after" | "before"): CursorPlace;
}

export function createListContext<T>(source: ListSource<T>, maxSize: number): ListContext<T> {
  const digests = new Map<PageForm, string>();
  const digestFor = (form: PageForm): string => {
    let digest = digests.get(form);
    if (digest === undefined) {
      digest = listDigest(source.name, form, source.filters);
      digests.set(form, digest);
    }
    return digest;
  };
  return {
    source,
    maxSize,
    issue: (place) => encodeCursor(source.cursorKey, digestFor(place.form), place),
    verify(raw, argument) {
      const { digest, place } = decodeCursor(source.cursorKey, raw, argument);
      // The cursor's own form is checked, not the assumed one: a list whose upstream turned out
      // to page differently keeps accepting the cursors it issued.
      if (digest !== digestFor(place.form)) throw cursorMismatch(source.name, source.filters);
      return place;
    },
  };
}
