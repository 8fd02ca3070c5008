/**
 * Strings in the order of their Unicode code points: the order of PostgreSQL's "C" and "C.UTF-8"
 * collations (UTF-8's byte order), whatever the engine or the database's locale, so rows the store
 * sends unsorted are put in one order everywhere. JavaScript's `<` compares UTF-16 code units,
 * which puts U+E000-U+FFFF after the supplementary planes (their surrogates are 0xD800-0xDFFF);
 * at the first differing unit this moves the surrogates above them. Pure.
 */
const rank = (unit: number): number => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}
