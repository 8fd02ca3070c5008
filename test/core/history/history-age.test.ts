import { describe, expect, it } from 'vitest';
import { parseAge } from '../../../src/core/history/history-age.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');

describe('parseAge', () => {
  it('takes days, weeks and a UTC day', () => {
    expect(parseAge('30d', NOW)).toEqual({ ok: true, cutoffMs: NOW - 30 * 86_400_000, since: '2026-10-31' });
    expect(parseAge('2w', NOW)).toMatchObject({ ok: true, since: '2026-11-16' });
    expect(parseAge('2026-11-01', NOW)).toEqual({ ok: true, cutoffMs: Date.parse('2026-11-01T00:00:00Z'), since: '2026-11-01' });
  });

  it('names the bad value and the forms', () => {
    expect(parseAge('30 days', NOW)).toEqual({ ok: false, message: '"30 days" is not an age; write a number of days or weeks (30d, 12w) or a day (2026-11-01)' });
    expect(parseAge('0d', NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/must be at least 1d/) });
    expect(parseAge('2026-02-30', NOW)).toMatchObject({ ok: false });
  });
});
