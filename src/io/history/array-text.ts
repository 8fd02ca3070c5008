/**
 * Arrays read as PostgreSQL's text form (`{1.5,2,3}`): node-postgres parses a float8[] or int[]
 * column element by element, several times slower than splitting the text, which matters for the
 * tens of thousands of numbers the summaries and the calibration read. Numbers only (no quoting).
 * JSON.parse reads a list of plain numbers twice as fast as split and Number (both round to the
 * nearest double); what JSON does not take (NULL, NaN, Infinity) is split as before, to NaN.
 */
export function numbersOfArrayText(text: string | null): number[] | null {
  if (text === null) return null;
  if (text.length <= 2) return [];
  const inner = text.slice(1, -1);
  try {
    return JSON.parse(`[${inner}]`) as number[];
  } catch {
    return inner.split(',').map(Number);
  }
}
