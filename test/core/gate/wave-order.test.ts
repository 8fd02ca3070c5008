import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costliestFirst, type WaveCosts, waveFileEstimate } from '../../../src/core/gate/wave-order.js';
import type { WaveFile } from '../../../src/core/gate/wave-types.js';

const costs = (
  costMs: Record<string, number>,
  tests: Record<string, { tries: number; spentMs: number }> = {},
): WaveCosts => ({
  costMs: new Map(Object.entries(costMs)),
  tally: new Map(Object.entries(tests).map(([k, t]) => [k, { passed: t.tries, failed: 0 }])),
  spentMs: new Map(Object.entries(tests).map(([k, t]) => [k, t.spentMs])),
});

describe('costliestFirst: the order a wave starts its files in', () => {
  it('puts the file with the most work first: its cold cost and its repeats at each test mean try', () => {
    const wave: WaveFile[] = [
      { fileKey: 'cheap', copies: 1 },
      { fileKey: 'repeated', copies: 1, repeats: new Map([['t', 50]]) },
      { fileKey: 'slow', copies: 1 },
    ];
    // repeated: 100 ms cold + 50 repeats of a 20 ms test = 1100 ms; slow: 900 ms; cheap: 50 ms.
    const measured = costs({ cheap: 50, repeated: 100, slow: 900 }, { t: { tries: 5, spentMs: 100 } });
    expect(waveFileEstimate(wave[1] as WaveFile, measured)).toBe(1100);
    expect(costliestFirst(wave, measured).map((f) => f.fileKey)).toEqual(['repeated', 'slow', 'cheap']);
  });

  it('starts a file not yet measured first, the unmeasured ones in the plan order', () => {
    const wave: WaveFile[] = [
      { fileKey: 'a', copies: 2 },
      { fileKey: 'new-1', copies: 1 },
      { fileKey: 'b', copies: 1 },
      { fileKey: 'new-2', copies: 1 },
    ];
    expect(costliestFirst(wave, costs({ a: 10, b: 500 })).map((f) => f.fileKey)).toEqual(['new-1', 'new-2', 'b', 'a']);
  });

  it('counts no repeats for a test without a try yet (its mean is unknown, not zero-divided)', () => {
    const wave: WaveFile[] = [{ fileKey: 'f', copies: 1, repeats: new Map([['untried', 30]]) }];
    expect(waveFileEstimate(wave[0] as WaveFile, costs({ f: 40 }))).toBe(40);
  });

  it('property: a permutation of the wave, estimates never rising, equal estimates in the plan order', () => {
    const file = fc.record({
      fileKey: fc.constantFrom('f0', 'f1', 'f2', 'f3', 'f4'),
      copies: fc.integer({ min: 1, max: 5 }),
      repeats: fc.option(fc.dictionary(fc.constantFrom('t0', 't1', 't2'), fc.integer({ min: 0, max: 100 })), {
        nil: undefined,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(file, { maxLength: 8 }),
        fc.dictionary(fc.constantFrom('f0', 'f1', 'f2', 'f3'), fc.integer({ min: 0, max: 10_000 })),
        fc.dictionary(
          fc.constantFrom('t0', 't1', 't2'),
          fc.record({ tries: fc.integer({ min: 0, max: 20 }), spentMs: fc.integer({ min: 0, max: 5000 }) }),
        ),
        (raw, costMs, tests) => {
          const wave: WaveFile[] = raw.map((f) => ({
            fileKey: f.fileKey,
            copies: f.copies,
            ...(f.repeats ? { repeats: new Map(Object.entries(f.repeats)) } : {}),
          }));
          const measured = costs(costMs, tests);
          const ordered = costliestFirst(wave, measured);
          expect([...ordered].sort((a, b) => wave.indexOf(a) - wave.indexOf(b))).toEqual(wave);
          for (let i = 1; i < ordered.length; i += 1) {
            const before = waveFileEstimate(ordered[i - 1] as WaveFile, measured);
            const after = waveFileEstimate(ordered[i] as WaveFile, measured);
            expect(before).toBeGreaterThanOrEqual(after);
            if (before === after)
              expect(wave.indexOf(ordered[i - 1] as WaveFile)).toBeLessThan(wave.indexOf(ordered[i] as WaveFile));
          }
        },
      ),
    );
  });
});
