import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';

describe('cart', () => {
  it('adds an item', () => {
    expect(['apple'].concat('pear')).toEqual(['apple', 'pear']);
  });

  it('totals a large order', async () => {
    await sleep(430);
    expect(2 + 2).toBe(4);
  });
});
