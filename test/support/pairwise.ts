/**
 * A pairwise covering array: rows of one value per factor such that every pair of values of any
 * two factors appears in some row. Greedy and deterministic: the first row takes every factor's
 * first value (the reference run), each later row starts from the first pair not yet covered and
 * fills the other factors with the value that covers most new pairs (ties: the earlier value).
 */
export type Factors = Readonly<Record<string, readonly string[]>>;
export type Row<F extends Factors> = { [K in keyof F]: F[K][number] };

export function pairwise<F extends Factors>(factors: F): Array<Row<F>> {
  const names = Object.keys(factors);
  const sizes = names.map((name) => factors[name]?.length ?? 0);
  if (sizes.some((size) => size === 0)) throw new Error("pairwise: every factor needs a value");
  const key = (a: number, va: number, b: number, vb: number) => `${a}:${va}/${b}:${vb}`;
  const uncovered = new Set<string>();
  for (let a = 0; a < names.length; a++)
    for (let b = a + 1; b < names.length; b++)
      for (let va = 0; va < (sizes[a] ?? 0); va++)
        for (let vb = 0; vb < (sizes[b] ?? 0); vb++) uncovered.add(key(a, va, b, vb));
  const cover = (row: number[]) => {
    for (let a = 0; a < row.length; a++)
      for (let b = a + 1; b < row.length; b++)
        uncovered.delete(key(a, row[a] ?? 0, b, row[b] ?? 0));
  };
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
      let best = 0;
      let bestGain = -1;
      for (let v = 0; v < (sizes[f] ?? 0); v++) {
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
