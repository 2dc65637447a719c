import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LANE_ACCOUNTS_FOR } from "../../src/gateway/execution/prepared-lane.ts";

/**
 * The prepared lane answers without yoga's hooks, so it must know what each plugin of the
 * pipeline would have done for the requests it serves. A plugin added to the pipeline fails this
 * test until prepared-lane.ts says what the lane does in its place.
 */
const STAGE_FILES = [
  "arrival-stage.ts",
  "preparation-stage.ts",
  "admission-stage.ts",
  "answer-stage.ts",
];

describe("the prepared lane's account of the pipeline", () => {
  it("names every plugin the gateway declares, and no other", () => {
    // createGateway's pipeline is the concatenation of its stages' lists, each in its own file.
    const names = STAGE_FILES.flatMap((file) => {
      const source = readFileSync(resolve(import.meta.dirname, "../../src/gateway", file), "utf8");
      const declared = /\n {2}return \[([\s\S]*?)\n {2}\];/.exec(source)?.[1] ?? "";
      return [...declared.matchAll(/^ {6}name: "([a-z-]+)"| \{ name: "([a-z-]+)"/gm)].map(
        (match) => match[1] ?? match[2],
      );
    });

    expect(names.length).toBeGreaterThan(25);
    expect(Object.keys(LANE_ACCOUNTS_FOR).sort()).toEqual([...names].sort());
  });
});
