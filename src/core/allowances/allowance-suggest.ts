/** The names closest to a mistyped one (edit distance, then shared words), for "did you mean". */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j] as number;
      row[j] = Math.min(next + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = next;
    }
  }
  return row[b.length] as number;
}

export function closestNames(target: string, names: readonly string[], count = 5): string[] {
  const lower = target.toLowerCase();
  return [...new Set(names)]
    .map((name) => ({ name, d: distance(lower, name.toLowerCase()) }))
    .sort((x, y) => x.d - y.d || (x.name < y.name ? -1 : 1))
    .slice(0, count)
    .map((x) => x.name);
}
