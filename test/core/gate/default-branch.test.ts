import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BranchFacts, chooseDefaultBranch, DEFAULT_CANDIDATES } from '../../../src/core/gate/default-branch.js';

const facts = (over: Partial<BranchFacts>): BranchFacts => ({
  own: 'feature',
  originHead: null,
  remoteHead: null,
  exists: new Set(),
  ...over,
});

describe('chooseDefaultBranch: never the branch checked out', () => {
  it('origin/HEAD when it names another branch', () => {
    expect(chooseDefaultBranch(facts({ originHead: 'origin/main', exists: new Set(['origin/main']) }))).toEqual({
      kind: 'found',
      ref: 'origin/main',
    });
  });

  it('origin/HEAD naming the branch itself (a clone of a working copy on feature): origin/main (issue 48)', () => {
    const clone = facts({
      originHead: 'origin/feature',
      remoteHead: 'origin/feature',
      exists: new Set(['origin/feature', 'origin/main']),
    });
    expect(chooseDefaultBranch(clone)).toEqual({ kind: 'found', ref: 'origin/main' });
  });

  it('the remote names another branch: that one', () => {
    const clone = facts({ originHead: 'origin/feature', remoteHead: 'origin/trunk', exists: new Set(['origin/main']) });
    expect(chooseDefaultBranch(clone)).toEqual({ kind: 'found', ref: 'origin/trunk' });
  });

  it('no other default branch: none, naming origin/HEAD (the caller says which base to pass)', () => {
    const alone = facts({
      originHead: 'origin/feature',
      remoteHead: 'origin/feature',
      exists: new Set(['origin/feature']),
    });
    expect(chooseDefaultBranch(alone)).toEqual({ kind: 'own-branch', originHead: 'origin/feature' });
  });

  it('on the default branch itself: the branch (nothing is new against it)', () => {
    expect(
      chooseDefaultBranch(
        facts({
          own: 'main',
          originHead: 'origin/main',
          remoteHead: 'origin/main',
          exists: new Set(['origin/main', 'main']),
        }),
      ),
    ).toEqual({ kind: 'found', ref: 'origin/main' });
    expect(chooseDefaultBranch(facts({ own: 'main', exists: new Set(['main']) }))).toEqual({
      kind: 'found',
      ref: 'main',
    });
  });

  it('property: a branch other than main or master named by origin/HEAD is never its own base', () => {
    const branch = fc.constantFrom('feature', 'fix/x', 'trunk', 'main', 'master');
    const ref = fc.oneof(
      fc.constant(null),
      branch.map((b) => `origin/${b}`),
    );
    const refs = fc.subarray([...DEFAULT_CANDIDATES, 'origin/feature', 'origin/trunk', 'origin/fix/x']);
    fc.assert(
      fc.property(branch, ref, ref, refs, (own, originHead, remoteHead, existing) => {
        const got = chooseDefaultBranch({ own, originHead, remoteHead, exists: new Set(existing) });
        const itself = got.kind === 'found' && (got.ref === own || got.ref === `origin/${own}`);
        if (originHead !== null && own !== 'main' && own !== 'master') expect(itself).toBe(false);
      }),
    );
  });
});
