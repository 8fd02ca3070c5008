import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllowanceFile } from '../../../src/core/allowances/allowance-parse.js';
import { serializeEntry } from '../../../src/core/allowances/allowance-serialize.js';
import { upsertTestEntry } from '../../../src/core/allowances/allowance-upsert.js';
import { entry, W } from './allowance-factories.js';

/** What the gate proposes for test "slow": 400 ms on linux, its own stable id. */
const proposal = entry('9a9a9a9a', 'slow', {
  budget: { kind: 'map', values: { linux: 400 } },
  reason: 'flakeguard gate: slowest of 1 tries 212ms',
  fingerprint: '1111222233334444',
});

const forTest = (text: string, fullName: string) =>
  parseAllowanceFile(text, W).allowances.filter((a) => a.fullName === fullName && a.file === 'x.test.ts');

describe('upsertTestEntry: the gate writes into the entry a test has', () => {
  it('sets the budget of the entry `allowances add` wrote, keeping its id, comments and other keys', () => {
    const mine = serializeEntry(entry('c0ffee00', 'slow', { budget: { kind: 'single', value: 120 } }));
    const text = `# slow on purpose\n${mine}`;
    const out = upsertTestEntry(text, proposal, W);
    expect(out.id).toBe('c0ffee00');
    expect(out.text).toContain('# slow on purpose\n');
    const [only, ...more] = forTest(out.text, 'slow');
    expect(more).toEqual([]);
    expect(only).toMatchObject({
      id: 'c0ffee00',
      budget: { kind: 'map', values: { default: 120, linux: 400 } },
      reason: proposal.reason,
      fingerprint: proposal.fingerprint,
      added: '2026-11-30',
    });
    expect(out.block).toContain('id: c0ffee00');
  });

  it('gives a quarantine-only entry its budget and reason', () => {
    const text = `- id: d00d0000\n  test: slow\n  file: x.test.ts\n  quarantine:\n    reason: flaky\n    expires: 2026-12-20\n  added: 2026-11-30\n`;
    const out = upsertTestEntry(text, proposal, W);
    expect(forTest(out.text, 'slow')).toMatchObject([
      { id: 'd00d0000', budget: { kind: 'map', values: { linux: 400 } }, quarantine: { reason: 'flaky' } },
    ]);
  });

  it('a test without an entry gets the proposal; the gate replaces its own earlier proposal', () => {
    const first = upsertTestEntry('', proposal, W);
    expect(first.id).toBe(proposal.id);
    const again = upsertTestEntry(first.text, { ...proposal, budget: { kind: 'map', values: { linux: 500 } } }, W);
    expect(forTest(again.text, 'slow')).toMatchObject([{ id: proposal.id, budget: { values: { linux: 500 } } }]);
  });

  it('property: afterwards the test has exactly one entry, and every other entry is as it was', () => {
    const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd > e', 'slow2'), { maxLength: 4 });
    fc.assert(
      fc.property(names, fc.boolean(), fc.boolean(), (others, hasOwn, ownIsGates) => {
        const entries = others.map((name, i) => entry(`e000000${i}`, name));
        if (hasOwn) entries.push(entry(ownIsGates ? proposal.id : 'f0000000', 'slow'));
        const text = entries.map(serializeEntry).join('');
        const out = upsertTestEntry(text, proposal, W);
        expect(forTest(out.text, 'slow')).toHaveLength(1);
        const rest = (t: string) => parseAllowanceFile(t, W).allowances.filter((a) => a.fullName !== 'slow');
        expect(rest(out.text).map(({ at: _at, ...a }) => a)).toEqual(rest(text).map(({ at: _at, ...a }) => a));
      }),
    );
  });
});
