import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkExpiryDay, isoDayOf } from '../../src/core/calendar.js';

describe('checkExpiryDay (--expires)', () => {
  it('takes today and later days, refuses a past day and a non-date, naming why', () => {
    expect(checkExpiryDay('2026-11-30', '2026-11-30')).toEqual({ ok: true });
    expect(checkExpiryDay('2027-01-15', '2026-11-30')).toEqual({ ok: true });
    expect(checkExpiryDay('2020-01-01', '2026-11-30')).toEqual({
      ok: false,
      message: 'is in the past (today is 2026-11-30, UTC); give today or a later day, or leave --expires out',
    });
    expect(checkExpiryDay('2026-02-30', '2026-11-30')).toMatchObject({
      ok: false,
      message: expect.stringContaining('is not a date'),
    });
  });

  it('accepts a day exactly when it is not before today (property)', () => {
    const day = fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => isoDayOf(ms));
    fc.assert(
      fc.property(day, day, (expires, today) => {
        expect(checkExpiryDay(expires, today).ok).toBe(expires >= today);
      }),
    );
  });
});
