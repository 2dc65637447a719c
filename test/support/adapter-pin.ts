import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

// Each adapter that reaches into a library is written against one release of it: its test
// starts by holding the pin, the install and the adapter to that release, in one wording.

const root = new URL("../../", import.meta.url);
const json = (path: string) =>
  JSON.parse(readFileSync(new URL(path, root), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };

/** The version of `library` that npm installed. */
export function installedVersion(library: string): string {
  return json(`node_modules/${library}/package.json`).version;
}

/** The test that `adapter` runs on the `library` release it names, pinned exactly. */
export function itRunsOnItsRelease(
  adapter: { readonly name: string; readonly writtenAgainst: string },
  library: string,
): void {
  const { name, writtenAgainst } = adapter;
  it(`runs on the ${library} release it was written against, pinned exactly`, () => {
    expect(json("package.json").dependencies[library], `${name}: the pin`).toBe(writtenAgainst);
    expect(
      installedVersion(library),
      `${name} was written against ${library} ${writtenAgainst}: check what it relies on, then move its version`,
    ).toBe(writtenAgainst);
  });
}
