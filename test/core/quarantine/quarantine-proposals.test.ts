import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureRateUpperBound } from '../../../src/core/failure-rate.js';
import {
  computeQuarantineProposals,
  DEFAULT_QUARANTINE_POLICY,
  formatQuarantineProposals,
  proposalReason,
  type QuarantineProposal,
  rateLowerBound,
} from '../../../src/core/quarantine/quarantine-proposals.js';

const passed = { state: 'passed', flaky: false };

describe('quarantine proposals', () => {
  it('the lower bound sits at or below the observed rate, which sits at or below the upper bound', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))),
        ([runs, events]) => {
          const lower = rateLowerBound(events, runs);
          expect(lower).toBeGreaterThanOrEqual(0);
          expect(lower).toBeLessThanOrEqual(events / runs + 1e-9);
          expect(events / runs).toBeLessThanOrEqual(failureRateUpperBound(events, runs).upper + 1e-9);
        },
      ),
    );
  });

  it('3 flaky runs in 200 is not enough for 5%; 30 in 200 is; a quarantined test is not proposed twice', () => {
    const proposals = computeQuarantineProposals({
      branch: 'main',
      policy: DEFAULT_QUARANTINE_POLICY,
      tests: [
        { project: '', file: 'a.test.ts', fullName: 'rare', runs: 200, flakyRuns: 3 },
        { project: '', file: 'a.test.ts', fullName: 'often', runs: 200, flakyRuns: 30 },
        { project: '', file: 'a.test.ts', fullName: 'held', runs: 200, flakyRuns: 50 },
      ],
      quarantined: [{ id: 'q1', file: 'a.test.ts', fullName: 'held', lastRuns: [] }],
    });
    expect(proposals.quarantine.map((p) => p.fullName)).toEqual(['often']);
    expect(proposals.quarantine[0]?.lowerBound).toBeGreaterThan(0.1);
    expect(proposals.release).toEqual([]);
  });

  it('releases a quarantined test after N passing runs in a row, not after a retry among them', () => {
    const policy = { ...DEFAULT_QUARANTINE_POLICY, releaseAfter: 3 };
    const run = (lastRuns: { state: string; flaky: boolean }[]) =>
      computeQuarantineProposals({
        branch: null,
        policy,
        tests: [],
        quarantined: [{ id: 'q1', file: 'a.test.ts', fullName: 't', lastRuns }],
      }).release.length;
    expect(run([passed, passed, passed])).toBe(1);
    expect(run([passed, passed])).toBe(0);
    expect(run([passed, { state: 'passed', flaky: true }, passed])).toBe(0);
    expect(run([passed, passed, passed, { state: 'failed', flaky: false }])).toBe(1);
  });

  it('proposes a test flaky in one Vitest project in that project, naming it; one quarantine holds it in every project', () => {
    const proposals = computeQuarantineProposals({
      branch: 'main',
      policy: DEFAULT_QUARANTINE_POLICY,
      tests: [
        { project: 'edge', file: 'a.test.ts', fullName: 'rounds', runs: 100, flakyRuns: 40 },
        { project: 'node', file: 'a.test.ts', fullName: 'rounds', runs: 100, flakyRuns: 0 },
        { project: 'node', file: 'a.test.ts', fullName: 'held', runs: 100, flakyRuns: 40 },
      ],
      // A quarantine names no project: held in node means held in edge too.
      quarantined: [{ id: 'q1', file: 'a.test.ts', fullName: 'held', lastRuns: [] }],
    });
    expect(proposals.quarantine.map((p) => [p.project, p.fullName])).toEqual([['edge', 'rounds']]);
    expect(formatQuarantineProposals(proposals, false)).toContain(
      'quarantine  a.test.ts [edge]  rounds  flaky in 40 of 100',
    );
    expect(proposalReason(proposals.quarantine[0] as QuarantineProposal, 'main')).toContain(
      'flaky in 40 of 100 runs in project edge on main',
    );
  });

  it('prints nothing when there is nothing to propose', () => {
    expect(
      formatQuarantineProposals(
        { branch: 'main', policy: DEFAULT_QUARANTINE_POLICY, quarantine: [], release: [] },
        false,
      ),
    ).toBe('');
  });
});
