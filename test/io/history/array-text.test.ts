import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numbersOfArrayText } from '../../../src/io/history/array-text.js';

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
