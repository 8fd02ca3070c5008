import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachFlakeCauses, findTriageCause } from '../../../src/core/cause/triage-cause.js';
import type { Finding, ObservedTest } from '../../../src/core/triage/triage-types.js';

describe('findTriageCause', () => {
  it('network from a port or socket error, timing from a timeout, else unknown; all inferred', () => {
    const at = { file: 'test/api.test.ts', line: 7 };
    expect(findTriageCause({ ...at, errors: ['Error: connect ECONNREFUSED 127.0.0.1:5432'] })).toMatchObject({
      class: 'network',
      confidence: 'inferred',
      fix: 'listen on port 0 and read the port back, or mock the network, at test/api.test.ts:7',
    });
    expect(findTriageCause({ ...at, errors: ['Error: Test timed out in 5000ms.'] }).class).toBe('timing');
    expect(findTriageCause({ ...at, errors: ['AssertionError: expected 2 to be 3'] })).toMatchObject({
      class: 'unknown',
      evidence: [],
    });
    expect(findTriageCause({ file: null, line: null, errors: [] }).fix).toContain('at its test file');
  });
  it('property: triage never claims measured (it controlled no condition)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('EADDRINUSE', 'Test timed out in 10ms'))),
        (errors) => {
          expect(findTriageCause({ file: 'a.test.ts', line: 1, errors }).confidence).toBe('inferred');
        },
      ),
    );
  });
  it('attaches a cause to flake findings only, from their test errors', () => {
    const flake = { class: 'flake', test: 'api > gets', file: 'test/api.test.ts' } as Finding;
    const escaped = { class: 'escape', test: 'api > gets', file: 'test/api.test.ts' } as Finding;
    const observed = {
      name: 'api > gets',
      file: 'test/api.test.ts',
      line: 9,
      errors: ['Error: listen EADDRINUSE: address already in use :::3000'],
    } as unknown as ObservedTest;
    const [f, e] = attachFlakeCauses([flake, escaped], [observed]);
    expect(f?.flakeCause).toMatchObject({ class: 'network', fix: expect.stringContaining('test/api.test.ts:9') });
    expect(e?.flakeCause).toBeUndefined();
  });
});
