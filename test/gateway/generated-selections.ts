import fc from "fast-check";

/**
 * Selections of `fields` (a field, or a field with its sub-selection: "voiceConfigs { id }"),
 * each maybe aliased and maybe under `@skip`/`@include` of `$flag`; no response key twice.
 */
export function selectionOf(fields: readonly string[], maxLength = 5): fc.Arbitrary<string> {
  return fc
    .uniqueArray(
      fc.record({
        field: fc.constantFrom(...fields),
        alias: fc.option(fc.constantFrom("a", "b", "c"), { nil: undefined }),
        directive: fc.constantFrom("", " @skip(if: $flag)", " @include(if: $flag)"),
      }),
      { minLength: 1, maxLength, selector: (f) => f.alias ?? f.field.split(" ")[0] },
    )
    .map((picked) =>
      picked
        .map(({ field, alias, directive }) => {
          const [name, ...rest] = field.split(" ");
          return `${alias ? `${alias}: ` : ""}${name}${directive} ${rest.join(" ")}`;
        })
        .join(" "),
    );
}
