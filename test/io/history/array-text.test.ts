import { describe, expect, it } from 'vitest';
import { numbersOfArrayText } from '../../../src/io/history/array-text.js';

describe('numbersOfArrayText: a PostgreSQL array of numbers in its text form', () => {
  it('reads numbers, an empty array and no array', () => {
    expect(numbersOfArrayText('{1.5,2,-3,0.001,1e+20,1733300000000}')).toEqual([
      1.5, 2, -3, 0.001, 1e20, 1733300000000,
    ]);
    expect(numbersOfArrayText('{}')).toEqual([]);
    expect(numbersOfArrayText(null)).toBeNull();
  });

  it('reads what JSON cannot (NaN, Infinity, NULL) as Number reads it', () => {
    expect(numbersOfArrayText('{NaN,Infinity,-Infinity,2}')).toEqual([Number.NaN, Infinity, -Infinity, 2]);
    expect(numbersOfArrayText('{NULL,2}')).toEqual([Number.NaN, 2]);
  });
});
