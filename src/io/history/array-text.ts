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

/**
 * An array's text of any depth (`{{1,NULL},{2.5,3}}`) as its numbers in order, NULL as null
 * (float8out's text reads back exactly): its braces dropped, read as one JSON list (twice as fast
 * as split and Number, and no string a number); what JSON does not take (NaN, Infinity) is split.
 */
export function numbersOfNestedArrayText(text: string): (number | null)[] {
  const flat = text.replace(/[{}]/g, '');
  if (flat === '') return [];
  try {
    return JSON.parse(`[${flat.replaceAll('NULL', 'null')}]`) as (number | null)[];
  } catch {
    return flat.split(',').map((v) => (v === 'NULL' ? null : Number(v)));
  }
}

/**
 * A one-dimensional text[] in PostgreSQL's text form (`{linux,"",NULL,"a \"b\""}`) as its strings
 * (NULL as null): an element is quoted when it is empty, holds a quote, a backslash, a comma, a
 * brace or a space, or reads NULL; a backslash inside quotes escapes the next character.
 */
export function stringsOfArrayText(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  if (text.length <= 2) return out;
  let i = 1;
  while (i < text.length - 1) {
    if (text[i] === '"') {
      let value = '';
      i += 1;
      while (text[i] !== '"') {
        if (text[i] === '\\') i += 1;
        value += text[i];
        i += 1;
      }
      out.push(value);
      i += 2;
    } else {
      let end = text.indexOf(',', i);
      if (end === -1 || end > text.length - 1) end = text.length - 1;
      const value = text.slice(i, end);
      out.push(value === 'NULL' ? null : value);
      i = end + 1;
    }
  }
  return out;
}
