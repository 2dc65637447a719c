import type { UpstreamPageParams } from "./types.ts";

/** A half-open range of absolute item indexes, `[start, end)`. */
export interface Window {
  start: number;
  end: number;
}

/**
 * The fewest upstream requests that cover a non-empty window of at most `maxSize` items:
 * limit/offset asks for exactly the window; page/pageSize uses one page size for every page.
 */
export function planPositionRequests(
  form: "page" | "offset",
  window: Window,
  maxSize: number,
): UpstreamPageParams[] {
  const size = window.end - window.start;
  if (form === "offset") return [{ limit: size, offset: window.start }];
  return planPages(window, size, maxSize);
}

/**
 * The smallest page size p (size ≤ p ≤ maxSize) whose page holds both ends of the window gives
 * one request; when there is none, pages of exactly `size` items need two neighbours.
 */
function planPages(window: Window, size: number, maxSize: number): UpstreamPageParams[] {
  const last = window.end - 1;
  for (let pageSize = size; pageSize <= maxSize; pageSize += 1) {
    const page = Math.floor(window.start / pageSize);
    if (page === Math.floor(last / pageSize)) return [{ page: page + 1, pageSize }];
  }
  const firstPage = Math.floor(window.start / size) + 1;
  return [
    { page: firstPage, pageSize: size },
    { page: firstPage + 1, pageSize: size },
  ];
}
