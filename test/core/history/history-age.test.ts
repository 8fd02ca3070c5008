import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AGE_DAYS, parseAge } from '../../../src/core/history/history-age.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');

describe('parseAge', () => {
  it('takes days, weeks and a UTC day', () => {
    expect(parseAge('30d', NOW)).toEqual({ ok: true, cutoffMs: NOW - 30 * 86_400_000, since: '2026-10-31' });
    expect(parseAge('2w', NOW)).toMatchObject({ ok: true, since: '2026-11-16' });
    expect(parseAge('2026-11-01', NOW)).toEqual({
      ok: true,
      cutoffMs: Date.parse('2026-11-01T00:00:00Z'),
      since: '2026-11-01',
    });
  });

  it('names the bad value and the forms', () => {
    expect(parseAge('30 days', NOW)).toEqual({
      ok: false,
      message: '"30 days" is not an age; write a number of days or weeks (30d, 12w) or a day (2026-11-01)',
    });
    expect(parseAge('0d', NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/must be at least 1d/) });
    expect(parseAge('2026-02-30', NOW)).toMatchObject({ ok: false });
  });

  it('is bounded: more than 100 years, or a day in the future, is refused with the value named', () => {
    expect(parseAge('99999999d', NOW)).toEqual({
      ok: false,
      message:
        '"99999999d" is more than 36500d (100 years); write a number of days or weeks (30d, 12w) or a day (2026-11-01)',
    });
    expect(parseAge('99999999w', NOW)).toMatchObject({
      ok: false,
      message: expect.stringContaining('more than 36500d'),
    });
    expect(parseAge('2027-01-01', NOW)).toMatchObject({
      ok: false,
      message: expect.stringContaining('"2027-01-01" is in the future (today is 2026-11-30, UTC)'),
    });
    expect(parseAge('1900-01-01', NOW)).toMatchObject({
      ok: false,
      message: expect.stringContaining('more than 36500d'),
    });
    expect(parseAge(`${MAX_AGE_DAYS}d`, NOW)).toMatchObject({ ok: true });
  });

  it('never throws, and an accepted age is a real day no later than now (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.nat().map((n) => `${n}d`),
          fc.nat().map((n) => `${n}w`),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        ),
        (text) => {
          const age = parseAge(text, NOW);
          if (age.ok) {
            expect(age.cutoffMs).toBeLessThanOrEqual(NOW);
            expect(NOW - age.cutoffMs).toBeLessThanOrEqual(MAX_AGE_DAYS * 86_400_000 + 86_400_000);
            expect(age.since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          } else expect(age.message.length).toBeLessThan(200);
        },
      ),
    );
  });
});
