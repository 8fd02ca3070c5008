import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLockOwner, judgeLock, type LockFacts, parseLockOwner } from '../../src/core/lock-owner.js';

const NOW = Date.parse('2026-12-01T10:00:00Z');
const facts = (over: Partial<LockFacts> = {}): LockFacts => ({
  host: 'here',
  nowMs: NOW,
  isAlive: () => true,
  foreignStaleMs: 60_000,
  ...over,
});
const owner = { pid: 4242, host: 'here', takenAt: '2026-12-01T09:59:30.000Z', token: 'feedfacefeedface' };

describe('lock owner', () => {
  it('a whole lock of a live process on this host is held', () => {
    expect(judgeLock(formatLockOwner(owner), facts())).toEqual({ kind: 'held', owner });
  });

  it('empty, garbage, an older format and a dead pid on this host are stale, each with its reason', () => {
    expect(judgeLock('', facts())).toEqual({ kind: 'stale', reason: 'it is empty' });
    expect(judgeLock('\u0000\u0001garbage', facts())).toEqual({
      kind: 'stale',
      reason: 'it does not name an owner (pid, host, time)',
    });
    expect(judgeLock(`4242\nhere\n`, facts())).toMatchObject({ kind: 'stale' });
    expect(judgeLock(formatLockOwner(owner), facts({ isAlive: () => false }))).toEqual({
      kind: 'stale',
      reason: 'its owner, process 4242 on this host, has ended',
    });
  });

  it("a lock from another host is held until the caller's limit, then stale", () => {
    const foreign = formatLockOwner({ ...owner, host: 'ci-7' });
    expect(judgeLock(foreign, facts({ isAlive: () => false }))).toMatchObject({ kind: 'held' });
    expect(judgeLock(foreign, facts({ nowMs: NOW + 120_000 }))).toMatchObject({
      kind: 'stale',
      reason: expect.stringContaining('on ci-7'),
    });
    expect(judgeLock(foreign, facts({ nowMs: NOW + 1e12, foreignStaleMs: Number.POSITIVE_INFINITY }))).toMatchObject({
      kind: 'held',
    });
  });

  it('every owner written parses back, and no text that is not a whole lock is ever held (property)', () => {
    const ownerArb = fc.record({
      pid: fc.integer({ min: 1, max: 4_194_304 }),
      host: fc.string({ minLength: 1 }).filter((h) => !h.includes('\n')),
      takenAt: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
      token: fc.stringMatching(/^[0-9a-f]{16}$/),
    });
    fc.assert(
      fc.property(ownerArb, (o) => {
        expect(parseLockOwner(formatLockOwner(o))).toEqual(o);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const state = judgeLock(text, facts());
        if (state.kind === 'held') expect(formatLockOwner(state.owner)).toBe(text);
      }),
    );
  });
});

describe('a lock from another host, by its age (issue 48, finding 10)', () => {
  const foreign = formatLockOwner({ ...owner, host: 'ci-7', takenAt: '2026-10-27T10:00:00.000Z' });
  const hour = facts({ foreignStaleMs: 3_600_000 });

  it('five weeks old and never refreshed: stale, naming the host, the time and the limit', () => {
    expect(judgeLock(foreign, hour)).toEqual({
      kind: 'stale',
      reason:
        'it was taken by process 4242 on ci-7 at 2026-10-27T10:00:00.000Z and not refreshed for more than 1h (a process on another host cannot be checked from here)',
    });
  });

  it('taken long ago but refreshed by its holder within the limit: held', () => {
    expect(judgeLock(foreign, { ...hour, touchedMs: NOW - 60_000 })).toMatchObject({ kind: 'held' });
    expect(judgeLock(foreign, { ...hour, touchedMs: NOW - 3_700_000 })).toMatchObject({ kind: 'stale' });
  });

  it('stale exactly when the later of taken and refreshed is older than the limit (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e10 }),
        fc.option(fc.integer({ min: 0, max: 1e10 }), { nil: undefined }),
        fc.integer({ min: 1000, max: 1e9 }),
        (takenAgo, touchedAgo, limit) => {
          const text = formatLockOwner({ ...owner, host: 'ci-7', takenAt: new Date(NOW - takenAgo).toISOString() });
          const state = judgeLock(text, {
            ...facts({ foreignStaleMs: limit, isAlive: () => false }),
            ...(touchedAgo === undefined ? {} : { touchedMs: NOW - touchedAgo }),
          });
          const age = Math.min(takenAgo, touchedAgo ?? Number.POSITIVE_INFINITY);
          expect(state.kind).toBe(age > limit ? 'stale' : 'held');
        },
      ),
    );
  });
});
