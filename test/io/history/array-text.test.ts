import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  numbersOfArrayText,
  numbersOfNestedArrayText,
  stringsOfArrayText,
} from '../../../src/io/history/array-text.js';

/** What it read before JSON.parse: split and Number. */
const splitText = (text: string): number[] => (text.length <= 2 ? [] : text.slice(1, -1).split(',').map(Number));

describe("PostgreSQL's array text as numbers", () => {
  it('reads what split and Number read, NULL, NaN and Infinity included', () => {
    for (const text of [
      '{}',
      '{1}',
      '{1.5,2,-3}',
      '{-0,0}',
      '{1e-05,1.5e+20,12345.67}',
      '{NULL,2}',
      '{NaN,Infinity,-Infinity}',
    ])
      expect(numbersOfArrayText(text)).toEqual(splitText(text));
    expect(numbersOfArrayText(null)).toBeNull();
  });

  it('reads any list of doubles to the same numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true })), (values) => {
        const text = `{${values.map(String).join(',')}}`;
        expect(numbersOfArrayText(text)).toEqual(splitText(text));
      }),
    );
  });
});

describe('numbersOfNestedArrayText', () => {
  it('reads a 2-D array in order, NULL as null, NaN and Infinity (which JSON does not take) included', () => {
    expect(numbersOfNestedArrayText('{}')).toEqual([]);
    expect(numbersOfNestedArrayText('{{1,NULL},{2.5,-3}}')).toEqual([1, null, 2.5, -3]);
    expect(numbersOfNestedArrayText('{{1e-05,1.5e+20},{-0,0}}')).toEqual([1e-5, 1.5e20, -0, 0]);
    expect(numbersOfNestedArrayText('{{1,Infinity},{NULL,-Infinity},{NaN,2.5}}')).toEqual([
      1,
      Number.POSITIVE_INFINITY,
      null,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      2.5,
    ]);
  });

  it('reads any 2-D array of doubles and NULLs to its values in order', () => {
    const cell = fc.oneof(fc.constant(null), fc.double({ noNaN: true }));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 13 }), { minLength: 1 }), (rows) => {
        const width = rows[0]?.length ?? 1;
        const even = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? null));
        // As float8out writes them: NULL, -0, Infinity and -Infinity by name.
        const out = (v: number | null) => (v === null ? 'NULL' : Object.is(v, -0) ? '-0' : String(v));
        const text = `{${even.map((r) => `{${r.map(out).join(',')}}`).join(',')}}`;
        expect(numbersOfNestedArrayText(text)).toEqual(even.flat());
      }),
    );
  });
});

describe('stringsOfArrayText', () => {
  it("reads PostgreSQL's text[] output back: empty, quoted, escaped, NULL and plain elements", async () => {
    const { startPostgres } = await import('./postgres-server.mjs');
    const pg = (await import('pg')).default;
    const server = await startPostgres();
    const client = new pg.Client(server.url);
    try {
      await client.connect();
      const values = ['linux', '', '1/2', 'a "b"', 'c\\d', 'x,y', '{z}', ' sp ', 'NULL', 'é ü', 'win32'];
      const { rows } = await client.query<{ t: string }>('SELECT $1::text[]::text AS t', [values]);
      expect(stringsOfArrayText(rows[0]!.t)).toEqual(values);
      const withNull = await client.query<{ t: string }>("SELECT ARRAY['a', NULL, '']::text[]::text AS t");
      expect(stringsOfArrayText(withNull.rows[0]!.t)).toEqual(['a', null, '']);
      expect(stringsOfArrayText('{}')).toEqual([]);
    } finally {
      await client.end();
      await server.stop();
    }
  });
});
