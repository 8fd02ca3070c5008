import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findGateCause, type GateCauseInput } from '../../../src/core/gate/gate-cause.js';
import { pairedSeeds, sameSeedAgain, seedDidNotDecide } from '../../../src/core/gate/paired-seeds.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const tried = (state: 'passed' | 'failed', seed: number, cold = true): GateTry => ({
  state,
  durationMs: 5,
  cold,
  seed,
  ...(state === 'failed' ? { error: 'AssertionError: the coin came up tails' } : {}),
});
const warm = (state: 'passed' | 'failed', seed: number): GateTry => tried(state, seed, false);
const many = (n: number, state: 'passed' | 'failed', from: number): GateTry[] =>
  Array.from({ length: n }, (_, i) => warm(state, from + i));

// A 1-in-5 coin at x3 whose five reference tries failed three times by chance: against 2 of 30
// fresh draws without slowdown that is one-sided Fisher p = 0.01, which `slowdown-factor` calls timing.
const reference = [
  tried('failed', 11),
  tried('passed', 12),
  tried('failed', 13),
  tried('failed', 14),
  tried('passed', 15),
];
const input = (unthrottled: GateTry[]): GateCauseInput => ({
  file: 'test/coin.test.ts',
  line: 3,
  verdict: 'flaky',
  reference: { factor: 3, tries: reference },
  higher: [],
  confirm: [],
  unthrottled,
  alone: null,
});

describe('pairedSeeds', () => {
  it('a fresh draw for the cold try, then the failed seeds, then the passed ones', () => {
    expect(pairedSeeds(reference)).toEqual([null, 11, 13, 14, 12, 15]);
  });
  it('none when no failed try has a seed (an unseeded gate, or no failure)', () => {
    expect(pairedSeeds([tried('passed', 1), tried('passed', 2)])).toEqual([]);
    expect(pairedSeeds([{ state: 'failed', durationMs: 5, cold: true }])).toEqual([]);
  });
  it('property: every seed once, each failed one before every passed one, a fresh draw first', () => {
    const tryArb = fc.record({
      state: fc.constantFrom('passed' as const, 'failed' as const, 'skipped' as const),
      seed: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(tryArb, { maxLength: 12 }), (spec) => {
        const tries: GateTry[] = spec.map((t) => ({
          state: t.state,
          durationMs: 1,
          ...(t.seed === undefined ? {} : { seed: t.seed }),
        }));
        const out = pairedSeeds(tries);
        const failed = tries.filter((t) => t.state === 'failed' && t.seed !== undefined).map((t) => t.seed);
        if (failed.length === 0) {
          expect(out).toEqual([]);
          return;
        }
        expect(out[0]).toBeNull();
        const rest = out.slice(1);
        expect(new Set(rest).size).toBe(rest.length);
        for (const s of failed) expect(rest.indexOf(s as number)).toBeLessThan(new Set(failed).size);
        for (const t of tries) if (t.seed !== undefined && t.state !== 'skipped') expect(rest).toContain(t.seed);
      }),
    );
  });
});

describe('the same-seed rule', () => {
  it('a seeded coin: its failed seeds fail again warm without slowdown, so random, not timing', () => {
    const unthrottled = [
      tried('passed', 99),
      warm('failed', 11),
      warm('failed', 13),
      warm('failed', 14),
      ...many(27, 'passed', 100),
    ];
    const c = findGateCause(input(unthrottled));
    expect(c.class).toBe('random-or-concurrency');
    expect(c.evidence[0]?.text).toBe(
      'the seeds of 3 tries that failed at x3.0 failed again without slowdown (3/3): its random draws fail it, not the slowdown',
    );
  });
  it('a deadline test: its failed seeds pass without slowdown, so the count rule decides: timing', () => {
    // Its reference tries warm after the first (a project with isolate: false), so cold-vs-warm does not read them.
    const warmReference = reference.map((t, i) => ({ ...t, cold: i === 0 }));
    const unthrottled = [
      tried('passed', 99),
      warm('passed', 11),
      warm('passed', 13),
      warm('passed', 14),
      ...many(27, 'passed', 100),
    ];
    expect(findGateCause({ ...input(unthrottled), reference: { factor: 3, tries: warmReference } }).class).toBe(
      'timing',
    );
  });
  it('a cold-start race is not read from its cold try: only warm replays count, and two at least', () => {
    expect(sameSeedAgain(reference, [tried('failed', 11), warm('passed', 13)])).toBeNull();
    expect(sameSeedAgain(reference, [warm('failed', 11)])).toBeNull();
    expect(sameSeedAgain(reference, [warm('failed', 11), warm('passed', 13)])).toBeNull();
    expect(sameSeedAgain(reference, [warm('failed', 11), warm('failed', 13)])).toEqual({ trials: 2, failures: 2 });
  });
  it('a counter flake: its failed seeds pass on replay, so the finding says the draws do not decide it and does not say to seed them', () => {
    // Fails every other try whatever it draws (a counter in a file): 15 of 30 unthrottled, its
    // failed seeds 1 of 3 again. Random-or-concurrency by the counts, but not by its Math.random.
    const unthrottled = [
      tried('failed', 99),
      warm('passed', 11),
      warm('failed', 13),
      warm('passed', 14),
      ...Array.from({ length: 26 }, (_, i) => warm(i % 2 === 0 ? 'failed' : 'passed', 100 + i)),
    ];
    expect(seedDidNotDecide(reference, unthrottled)).toEqual({ trials: 3, failures: 1 });
    const c = findGateCause({
      ...input(unthrottled),
      signals: [
        { line: 4, text: '`Math.random()` without a seed', classes: ['random-or-concurrency'], fix: 'seed it' },
      ],
    });
    expect(c.class).toBe('random-or-concurrency');
    expect(c.evidence.map((e) => e.text)).toContain(
      'the seeds of tries that failed at x3.0 failed 1 of 3 replays without slowdown: the same draws passed it, so its Math.random draws (seeded in every try) do not decide it',
    );
    expect(c.fix).toMatch(
      /^seeding Math\.random will not fix it: find what differs between tries with the same seed .* at test\/coin\.test\.ts:3$/,
    );
    // Its failed seeds failing every replay is the same-seed rule's, with the signal's fix.
    expect(seedDidNotDecide(reference, [warm('failed', 11), warm('failed', 13)])).toBeNull();
  });
});
