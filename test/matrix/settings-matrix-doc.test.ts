import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { ALLOWED_DIFFERENCES } from "../support/matrix-differences.ts";

it("docs/settings-matrix.md shows exactly the matrix's allowed differences", () => {
  const rows = readFileSync("docs/settings-matrix.md", "utf8")
    .split("\n")
    .filter(
      (line) => line.startsWith("| ") && !line.startsWith("| Setting") && !line.startsWith("| ---"),
    )
    .map((line) => line.slice(2, -2).split(" | "));
  expect(rows).toEqual(
    ALLOWED_DIFFERENCES.map((row) => [row.setting, row.item, row.differs, row.why]),
  );
});
