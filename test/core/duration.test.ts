import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, serializeDuration } from '../../src/core/duration.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['5s', 5000],
    ['1.5s', 1500],
    ['2m', 120000],
    [' 5s ', 5000],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it.each(['5 sec', '5', '', 's', '-1s', '0s', '5S', '1e3ms'])('rejects %j and names the accepted forms', (text) => {
    const parsed = parseDuration(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain('write 250ms, 5s, 1.5s or 2m');
  });

  it('round-trips every serialized duration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (ms) => {
        expect(parseDuration(serializeDuration(ms))).toEqual({ ok: true, ms });
      }),
    );
  });

  it('keeps the order of durations through parse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (a, b) => {
        const pa = parseDuration(serializeDuration(a));
        const pb = parseDuration(serializeDuration(b));
        if (pa.ok && pb.ok) expect(Math.sign(pa.ms - pb.ms)).toBe(Math.sign(a - b));
      }),
    );
  });
});

describe('formatDuration', () => {
  it('shows seconds with two decimals from one second up', () => {
    expect(formatDuration(5310)).toBe('5.31s');
    expect(formatDuration(5000)).toBe('5.00s');
    expect(formatDuration(351.4)).toBe('351ms');
  });
});

describe('duration bounds (issue 19, class 5)', () => {
  it('refuses more than 24h with the value named, never a number out of range', () => {
    expect(parseDuration('99999999h')).toEqual({
      ok: false,
      message: '"99999999h" is more than 24h; write 250ms, 5s, 1.5s or 2m (at most 24h)',
    });
    expect(parseDuration('24h')).toEqual({ ok: true, ms: 86_400_000 });
    expect(parseDuration(`${'9'.repeat(400)}ms`)).toMatchObject({ ok: false });
  });
});

describe('durations that round to zero (issue 48, finding 8)', () => {
  it('refuses a value that rounds to 0ms, naming it and the shortest accepted', () => {
    expect(parseDuration('0.0004ms')).toEqual({
      ok: false,
      message:
        '"0.0004ms" rounds to 0ms (durations are kept to 0.001ms); write 250ms, 5s, 1.5s or 2m (at least 0.001ms)',
    });
    expect(parseDuration('0.0000001s')).toMatchObject({ ok: false });
    expect(parseDuration('0.0005ms')).toEqual({ ok: true, ms: 0.001 });
  });

  it('every accepted duration is greater than zero after rounding', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 10, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom('ms', 's', 'm', 'h'),
        (value, unit) => {
          const text = `${value.toFixed(9)}${unit}`;
          const parsed = parseDuration(text);
          if (parsed.ok) {
            expect(parsed.ms).toBeGreaterThan(0);
            expect(parseDuration(serializeDuration(parsed.ms))).toEqual(parsed);
          }
        },
      ),
    );
  });
});
