/**
 * A pairwise covering array: rows of one value per factor such that every pair of values of any
 * two factors appears in some row. Greedy and deterministic: the first row takes every factor's
 * first value (the reference run), each later row starts from the first pair not yet covered and
 * fills the other factors with the value that covers most new pairs (ties: the earlier value).
 * An excluded pair (two settings start-up refuses together) is in no row and needs no cover;
 * each factor needs a value that no exclusion names, so a row can always be completed.
 */
export type Factors = Readonly<Record<string, readonly string[]>>;
export type Row<F extends Factors> = { [K in keyof F]: F[K][number] };
/** Two settings' values that never meet, e.g. `{ federation: "on", documents: "trusted" }`. */
export type Exclusion = Readonly<Record<string, string>>;

export function pairwise<F extends Factors>(
  factors: F,
  exclusions: readonly Exclusion[] = [],
): Array<Row<F>> {
  const names = Object.keys(factors);
  const sizes = names.map((name) => factors[name]?.length ?? 0);
  if (sizes.some((size) => size === 0)) throw new Error("pairwise: every factor needs a value");
  const key = (a: number, va: number, b: number, vb: number) => `${a}:${va}/${b}:${vb}`;
  const excluded = new Set<string>();
  for (const exclusion of exclusions) {
    const ends = Object.entries(exclusion).map(([name, value]) => {
      const f = names.indexOf(name);
      const v = factors[name]?.indexOf(value) ?? -1;
      if (f < 0 || v < 0) throw new Error(`pairwise: ${name}=${value} is no factor's value`);
      return [f, v] as const;
    });
    const [[a, va] = [0, 0], [b, vb] = [0, 0]] = ends.sort(([f], [g]) => f - g);
    if (ends.length !== 2) throw new Error("pairwise: an exclusion names two factors");
    excluded.add(key(a, va, b, vb));
  }
  const allowed = (f: number, v: number, g: number, w: number) =>
    !excluded.has(f < g ? key(f, v, g, w) : key(g, w, f, v));
  const uncovered = new Set<string>();
  for (let a = 0; a < names.length; a++)
    for (let b = a + 1; b < names.length; b++)
      for (let va = 0; va < (sizes[a] ?? 0); va++)
        for (let vb = 0; vb < (sizes[b] ?? 0); vb++)
          if (allowed(a, va, b, vb)) uncovered.add(key(a, va, b, vb));
  const cover = (row: number[]) => {
    for (let a = 0; a < row.length; a++)
      for (let b = a + 1; b < row.length; b++)
        uncovered.delete(key(a, row[a] ?? 0, b, row[b] ?? 0));
  };
  if ([...excluded].some((pair) => /^\d+:0\/\d+:0$/.test(pair)))
    throw new Error("pairwise: an exclusion holds two first values, the reference row's");
  const rows: number[][] = [names.map(() => 0)];
  cover(rows[0] ?? []);
  while (uncovered.size > 0) {
    const [first] = uncovered;
    const [left = "", right = ""] = (first ?? "").split("/");
    const [a, va] = left.split(":").map(Number) as [number, number];
    const [b, vb] = right.split(":").map(Number) as [number, number];
    const row: Array<number | undefined> = names.map(() => undefined);
    row[a] = va;
    row[b] = vb;
    for (let f = 0; f < names.length; f++) {
      if (row[f] !== undefined) continue;
      let best: number | undefined;
      let bestGain = -1;
      for (let v = 0; v < (sizes[f] ?? 0); v++) {
        const fits = row.every((other, g) => other === undefined || allowed(f, v, g, other));
        if (!fits) continue;
        let gain = 0;
        for (let g = 0; g < names.length; g++) {
          const other = row[g];
          if (g === f || other === undefined) continue;
          if (uncovered.has(f < g ? key(f, v, g, other) : key(g, other, f, v))) gain++;
        }
        if (gain > bestGain) {
          best = v;
          bestGain = gain;
        }
      }
      if (best === undefined) throw new Error(`pairwise: no value of ${names[f]} fits a row`);
      row[f] = best;
    }
    const complete = row.map((v) => v ?? 0);
    cover(complete);
    rows.push(complete);
  }
  return rows.map(
    (row) =>
      Object.fromEntries(names.map((name, f) => [name, factors[name]?.[row[f] ?? 0]])) as Row<F>,
  );
}
