import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import type { Connection, ConnectionArgs, PageForm } from "../../src/connections/types.ts";
import { type ListRoute, type ListUpstream, startListUpstream } from "../support/list-upstream.ts";
import { itemsSource, positionCursor, range } from "./list-source.ts";

/**
 * Property-based checks of the connection adapter over real HTTP: generated lists of 0 to 300
 * items in every page form, with and without `total`, with and without echoed paging parameters,
 * with and without a tighter endpoint bound, walked with generated Relay arguments.
 */

// One upstream for the file; each run rewrites its options (it reads them per request).
const options: ListRoute = { form: "offset", count: 0 };
let upstream: ListUpstream;
beforeAll(async () => {
  upstream = await startListUpstream({ "/items": options });
});
afterAll(() => upstream.close());

interface Shape {
  form: PageForm;
  count: number;
  withTotal: boolean;
  echo: boolean;
  maxItems: number | undefined;
}

/** Lists the seed allows; a tighter bound only where the answer can show it (total or echo). */
const shapes = fc
  .record({
    form: fc.constantFrom<PageForm>("page", "offset", "cursor"),
    count: fc.integer({ min: 0, max: 300 }),
    withTotal: fc.boolean(),
    echo: fc.boolean(),
    maxItems: fc.option(fc.integer({ min: 3, max: 30 }), { nil: undefined }),
  })
  .map(legal);

/**
 * Without a total and without an echo, a position-form answer cut by a tighter bound cannot be
 * told from the list's end: no reading of the seed can page such an endpoint exactly.
 */
function legal(shape: Shape): Shape {
  const silent = shape.form !== "cursor" && !shape.withTotal && !shape.echo;
  return silent ? { ...shape, maxItems: undefined } : shape;
}

function serve(shape: Shape) {
  // A page-form endpoint with a tighter bound that echoes says so in the `pageSize` it echoes.
  Object.assign(options, shape, { unknownShape: false, clampPageSize: shape.echo });
  if (shape.maxItems === undefined) delete options.maxItems;
  upstream.requests.length = 0;
  return itemsSource(upstream, { assumedForm: shape.form, defaultSize: 20 });
}

/** Resolves one page and how many upstream requests it took. */
async function resolvePage(shape: Shape, args: ConnectionArgs) {
  const source = serve(shape);
  const connection = await resolveConnection(source, args);
  return { connection, requests: upstream.requests.length };
}

/**
 * README "Connections": one round of ≤ 2 requests; a tighter endpoint bound may need a second
 * round and, without a total, one single-item read for hasNextPage.
 */
const requestBound = (shape: Shape) => (shape.maxItems === undefined ? 2 : 5);

function checkPage(shape: Shape, connection: Connection<number>, after: boolean) {
  const nodes = connection.edges.map((edge) => edge.node);
  const first = nodes[0];
  const last = nodes.at(-1);
  if (first === undefined || last === undefined) return nodes;
  expect(nodes).toEqual(range(first, last + 1));
  expect(connection.pageInfo.hasNextPage).toBe(last + 1 < shape.count);
  // Going forward by upstream cursor, Relay's "after was given" is all that can be said.
  const hasPrevious = shape.form === "cursor" ? after : first > 0;
  expect(connection.pageInfo.hasPreviousPage).toBe(hasPrevious);
  expect(connection.totalCount).toBe(shape.withTotal ? shape.count : null);
  return nodes;
}

describe("forward traversals", () => {
  it("return every item exactly once, in order, with exact page info", async () => {
    await fc.assert(
      fc.asyncProperty(shapes, fc.integer({ min: 1, max: 40 }), async (shape, size) => {
        const seen: number[] = [];
        let after: string | null = null;
        for (let pages = 0; pages <= shape.count + 1; pages += 1) {
          const { connection, requests } = await resolvePage(shape, { first: size, after });
          expect(requests).toBeLessThanOrEqual(requestBound(shape));
          seen.push(...checkPage(shape, connection, after !== null));
          if (!connection.pageInfo.hasNextPage) break;
          after = connection.pageInfo.endCursor;
        }
        expect(seen).toEqual(range(0, shape.count));
      }),
      { numRuns: 40 },
    );
  });
});

describe("backward traversals", () => {
  it("return every item exactly once, in order, from the end", async () => {
    const positionShapes = shapes.map((shape) =>
      legal({ ...shape, form: shape.form === "cursor" ? "offset" : shape.form, withTotal: true }),
    );
    await fc.assert(
      fc.asyncProperty(positionShapes, fc.integer({ min: 1, max: 40 }), async (shape, size) => {
        const seen: number[] = [];
        let before: string | null = null;
        for (let pages = 0; pages <= shape.count + 1; pages += 1) {
          const { connection, requests } = await resolvePage(shape, { last: size, before });
          // `last` without `before` learns the total first: one round more.
          const bound = requestBound(shape) + (before === null ? 2 : 0);
          expect(requests).toBeLessThanOrEqual(bound);
          seen.unshift(...checkPage(shape, connection, false));
          if (!connection.pageInfo.hasPreviousPage) break;
          before = connection.pageInfo.startCursor;
        }
        expect(seen).toEqual(range(0, shape.count));
      }),
      { numRuns: 40 },
    );
  });
});

describe("generated sequences of Relay arguments", () => {
  const moves = fc.array(
    fc.record({ forward: fc.boolean(), size: fc.integer({ min: 1, max: 30 }) }),
    { minLength: 1, maxLength: 8 },
  );

  it("serve exactly the items next to the cursor, on position-form lists", async () => {
    const positionShapes = shapes.map((shape) =>
      legal({ ...shape, form: shape.form === "cursor" ? "page" : shape.form }),
    );
    await fc.assert(
      fc.asyncProperty(positionShapes, moves, async (shape, steps) => {
        let current = (await resolvePage(shape, { first: 10 })).connection;
        for (const { forward, size } of steps) {
          const nodes = current.edges.map((edge) => edge.node);
          const edge = forward ? current.pageInfo.endCursor : current.pageInfo.startCursor;
          const at = forward ? nodes.at(-1) : nodes[0];
          if (edge === null || at === undefined) break;
          const args = forward ? { first: size, after: edge } : { last: size, before: edge };
          const { connection, requests } = await resolvePage(shape, args);
          expect(requests).toBeLessThanOrEqual(requestBound(shape));
          const got = checkPage(shape, connection, forward);
          const want = forward
            ? range(at + 1, Math.min(at + 1 + size, shape.count))
            : range(Math.max(0, at - size), at);
          // A tighter bound may shorten a page, from the far side only, never to nothing.
          if (shape.maxItems === undefined) expect(got).toEqual(want);
          else if (forward) expect(got).toEqual(want.slice(0, got.length));
          else expect(got).toEqual(want.slice(want.length - got.length));
          if (want.length > 0) expect(got.length).toBeGreaterThan(0);
          current = connection;
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("arbitrary strings as cursors", () => {
  const cursorLike = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 80 }),
    fc.string({ unit: "binary", maxLength: 80 }),
    fc
      .tuple(fc.base64String({ maxLength: 120 }), fc.base64String({ maxLength: 30 }))
      .map(([payload, mac]) => `${payload.replace(/=/g, "")}.${mac.replace(/=/g, "")}`),
    fc
      .record({ f: fc.string(), p: fc.double(), i: fc.string(), d: fc.string() })
      .map(
        (fields) => `${Buffer.from(JSON.stringify({ v: 2, ...fields })).toString("base64url")}.x`,
      ),
  );

  it("are always a client error, decided without an upstream call", async () => {
    const shape: Shape = { form: "offset", count: 30, withTotal: true, echo: true, maxItems: 10 };
    const valid = new Set([positionCursor("offset", 3)]);
    await fc.assert(
      fc.asyncProperty(cursorLike, fc.boolean(), async (cursor, asAfter) => {
        fc.pre(!valid.has(cursor));
        const source = serve(shape);
        const args = asAfter ? { first: 5, after: cursor } : { last: 5, before: cursor };
        const failure = await resolveConnection(source, args).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toMatchObject({
          name: "ConnectionError",
          code: expect.stringMatching(/^(BAD_USER_INPUT|CURSOR_MISMATCH)$/),
        });
        expect(upstream.requests).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
