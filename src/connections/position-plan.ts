import type { UpstreamPageParams } from "./types.ts";

/** A half-open range of absolute item indexes, `[start, end)`. */
export interface Window {
  start: number;
  end: number;
}

/**
 * The fewest upstream requests that cover a non-empty window (at most `maxSize` items plus the
 * two of overlap and look-ahead): limit/offset asks for exactly the window, split in two only
 * past `maxSize`; page/pageSize uses one page size for every page.
 */
export function planPositionRequests(
  form: "page" | "offset",
  window: Window,
  maxSize: number,
): UpstreamPageParams[] {
  const size = window.end - window.start;
  if (form === "page") return planPages(window, maxSize);
  if (size <= maxSize) return [{ limit: size, offset: window.start }];
  const middle = window.start + Math.ceil(size / 2);
  return [
    { limit: middle - window.start, offset: window.start },
    { limit: window.end - middle, offset: middle },
  ];
}

/**
 * The smallest page size (≤ maxSize) whose one page holds the whole window; else the smallest
 * whose two neighbouring pages do, fetched together; else as many pages of `maxSize` as the
 * window spans (three at most, for a window of maxSize + 2). Every loop runs ≤ maxSize times.
 */
function planPages(window: Window, maxSize: number): UpstreamPageParams[] {
  const size = window.end - window.start;
  const last = window.end - 1;
  for (let pages = 1; pages <= 2; pages += 1) {
    for (let pageSize = Math.ceil(size / pages); pageSize <= maxSize; pageSize += 1) {
      const firstPage = Math.floor(window.start / pageSize);
      if (Math.floor(last / pageSize) - firstPage < pages) {
        return pagesFrom(firstPage, Math.floor(last / pageSize), pageSize);
      }
    }
  }
  return pagesFrom(Math.floor(window.start / maxSize), Math.floor(last / maxSize), maxSize);
}

function pagesFrom(first: number, last: number, pageSize: number): UpstreamPageParams[] {
  return Array.from({ length: last - first + 1 }, (_, i) => ({ page: first + i + 1, pageSize }));
}
