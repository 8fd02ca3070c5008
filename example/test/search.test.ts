import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';

describe('search', () => {
  it('indexes the catalogue', async () => {
    await sleep(620);
    expect('catalogue'.includes('log')).toBe(true);
  });

  it('finds "quoted" names (and regex [chars])', () => {
    expect('a.b*c'.split('.')).toEqual(['a', 'b*c']);
  });
});
