import { createCursorKey, encodeCursor, listDigest } from "../../src/connections/cursor.ts";
import type { Connection, ListSource, UpstreamPageParams } from "../../src/connections/types.ts";
import { UpstreamError } from "../../src/upstream/errors.ts";
import { type ListRoute, type ListUpstream, startListUpstream } from "../support/list-upstream.ts";

/** The connection adapter's side of test/support/list-upstream.ts: list sources over its `/items`. */

/** The key every test list signs its cursors with. */
export const TEST_CURSOR_KEY = createCursorKey("test-cursor-secret-of-at-least-32-characters");

/** A list source over the upstream: params, then filters, as query parameters in that order. */
export function itemsSource(
  upstream: ListUpstream,
  overrides: Partial<ListSource<number>> = {},
): ListSource<number> {
  const filters = overrides.filters ?? {};
  return {
    name: "items",
    assumedForm: "page",
    defaultSize: 20,
    filters,
    cursorKey: TEST_CURSOR_KEY,
    itemId: (item) => `item_${item}`,
    fetch: (params) => fetchItems(upstream.url, params, filters),
    ...overrides,
  };
}

async function fetchItems(
  base: string,
  params: UpstreamPageParams,
  filters: Record<string, unknown>,
): Promise<unknown> {
  const query = new URLSearchParams();
  for (const [key, value] of [...Object.entries(params), ...Object.entries(filters)]) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const response = await fetch(`${base}/items?${query}`);
  const body = (await response.json()) as {
    error?: { code: string; message: string; details?: Record<string, unknown> };
    requestId?: string;
  };
  if (response.ok) return body;
  throw new UpstreamError({
    status: response.status,
    code: body.error?.code ?? `HTTP_${response.status}`,
    message: body.error?.message ?? response.statusText,
    requestId: body.requestId,
    details: body.error?.details,
  });
}

const running: ListUpstream[] = [];

/** Starts an upstream that `closeListUpstreams` (call it in afterEach) will close. */
export async function listUpstream(options: ListRoute): Promise<ListUpstream> {
  const upstream = await startListUpstream({ "/items": options });
  running.push(upstream);
  return upstream;
}

export async function closeListUpstreams(): Promise<void> {
  await Promise.all(running.splice(0).map((upstream) => upstream.close()));
}

/** An upstream of `count` numbered items in a position form, and the list source over it. */
export async function positionList(
  form: "page" | "offset",
  count: number,
  options: Omit<ListRoute, "form" | "count"> = {},
) {
  const upstream = await listUpstream({ form, count, ...options });
  return { upstream, source: itemsSource(upstream, { assumedForm: form }) };
}

/** The numbers from `from` up to, not including, `to`. */
export const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => from + i);

/**
 * The cursor this gateway issues for the item at `position` of the `items` list, remembering the
 * item's ID (null: a cursor that does not, so nothing is checked).
 */
export function positionCursor(
  form: "page" | "offset",
  position: number,
  filters: Record<string, unknown> = {},
  id: string | null = `item_${position}`,
): string {
  return encodeCursor(TEST_CURSOR_KEY, listDigest("items", form, filters), {
    form,
    position,
    id,
  });
}

/** What a client reads off a connection, in one comparable object. */
export function summary<T>(connection: Connection<T>) {
  return {
    nodes: connection.edges.map((edge) => edge.node),
    hasNextPage: connection.pageInfo.hasNextPage,
    hasPreviousPage: connection.pageInfo.hasPreviousPage,
    totalCount: connection.totalCount,
  };
}
