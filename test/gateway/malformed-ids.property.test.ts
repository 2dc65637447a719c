import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness, oneHarnessPerFile } from "./file-harness.ts";

oneHarnessPerFile();

/**
 * Whether a string is an ID the argument accepts, written out from docs/errors.md rather than
 * taken from src/schema/ids.ts: its prefix, something after it, at most 255 characters.
 */
function accepted(prefixes: readonly string[], id: string): boolean {
  return (
    id.length <= 255 &&
    id.isWellFormed() &&
    prefixes.some((prefix) => id.startsWith(prefix) && id.length > prefix.length)
  );
}

const NODE_PREFIXES = ["agt_", "cnt_", "cnv_", "cmp_", "prp_", "doc_"];

/** Each place an ID is taken: the operation, the argument it names, the prefixes it accepts. */
const PLACES = [
  { query: "query ($v: ID!) { agent(id: $v) { id } }", argument: "id", prefixes: ["agt_"] },
  { query: "query ($v: ID!) { node(id: $v) { id } }", argument: "id", prefixes: NODE_PREFIXES },
  {
    query: "query ($v: ID!) { nodes(ids: [$v]) { id } }",
    argument: "ids[0]",
    prefixes: NODE_PREFIXES,
  },
  {
    query: "query ($v: ID!) { conversation(id: $v) { id } }",
    argument: "id",
    prefixes: ["cnv_"],
  },
  {
    query: "query ($v: ID) { conversations(first: 1, filter: { contactId: $v }) { totalCount } }",
    argument: "filter.contactId",
    prefixes: ["cnt_"],
  },
  {
    query: "mutation ($v: ID!) { deleteCampaign(id: $v) { deletedId } }",
    argument: "id",
    prefixes: ["cmp_"],
  },
] as const;

/** Random strings, with prefixes and lengths near the bounds well represented. */
const anyId = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme-ascii", maxLength: 300 }),
  fc
    .tuple(fc.constantFrom("", ...NODE_PREFIXES), fc.integer({ min: 0, max: 300 }))
    .map(([prefix, length]) => `${prefix}${"x".repeat(length)}`),
  fc
    .tuple(fc.constantFrom(...NODE_PREFIXES), fc.string({ maxLength: 12 }))
    .map(([prefix, tail]) => `${prefix}${tail}`),
);

/** Only upstream 404s are expected for an accepted ID the seed does not hold: no writes land. */
function invalidOnly(place: (typeof PLACES)[number], id: string) {
  return !accepted(place.prefixes, id);
}

describe("any string as an ID", () => {
  it("is refused with HTTP 400 naming the argument, before any upstream call, when it is no ID", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLACES), anyId, async (place, id) => {
        fc.pre(invalidOnly(place, id));
        const { status, body } = await harness.graphql(place.query, { v: id });

        expect(status).toBe(400);
        expect(body.data).toBeUndefined();
        expect(body.errors).toHaveLength(1);
        const extensions = body.errors?.[0]?.extensions;
        expect(extensions?.code).toBe("BAD_USER_INPUT");
        expect(extensions?.http).toEqual({ status: 400 });
        // A lone surrogate is refused as the variable that holds it (use-well-formed-input.ts).
        expect([place.argument, "$v"]).toContain(extensions?.argument);
        expect(harness.takeUpstreamRequests()).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("is never answered with a 5xx, whether it is an ID or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLACES.slice(0, 5)), anyId, async (place, id) => {
        const { status, body } = await harness.graphql(place.query, { v: id });

        expect(status).toBeLessThan(500);
        for (const error of body.errors ?? []) {
          expect(["BAD_USER_INPUT", "NOT_FOUND"]).toContain(error.extensions?.code);
        }
        if (invalidOnly(place, id)) expect(harness.takeUpstreamRequests()).toEqual([]);
        else harness.takeUpstreamRequests();
      }),
      { numRuns: 150 },
    );
  });

  it("is judged the same written inline in the document", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PLACES),
        anyId.filter((id) => id.isWellFormed()),
        async (place, id) => {
          fc.pre(invalidOnly(place, id));
          const inline = place.query.replace(/^[a-z]+ \(\$v: ID!?\)/, (head) =>
            head.startsWith("mutation") ? "mutation" : "query",
          );
          const { status, body } = await harness.graphql(inline.replace("$v", JSON.stringify(id)));

          expect(status).toBe(400);
          expect(body.errors?.[0]?.extensions).toMatchObject({
            code: "BAD_USER_INPUT",
            argument: place.argument,
          });
          expect(harness.takeUpstreamRequests()).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
