/**
 * The gate's allowance proposals without --write-allowances: the entry is proposed (its YAML ready
 * to paste) and nothing is written. With --write-allowances the gate writes it and reads it back as
 * the test's limit: test/e2e/gate.test.ts (writing records followed allowances, which asks Vitest
 * for the test files: a process, so not here).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProposals } from '../../../src/commands/gate/gate-proposals.js';
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import { decideGateVerdict } from '../../../src/core/gate/gate-verdict.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-gate-proposals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('gate proposals without --write-allowances', () => {
  it('proposes an allowance for an over-budget test and writes nothing', async () => {
    const result = decideGateVerdict({
      tries: [900, 910, 905].map((durationMs) => ({ state: 'passed' as const, durationMs })),
      loaded: false,
      idle: null,
      alone: null,
      limit: { limitMs: 800, source: 'budget', platformKey: 'linux' },
      warnAt: 0.8,
    });
    expect(result.verdict).toBe('over-budget');
    const test = { file: 'test/slow.test.ts', fullName: 'exports the report', line: 3, previous: null, result };
    const proposals = await buildProposals({
      root,
      config: DEFAULT_CONFIG,
      platform: 'linux',
      tests: [{ ...test, selection: 'new' }],
      selected: [],
      workers: 0,
      write: false,
    });
    expect(proposals.map((p) => [p.fullName, p.storeFile, p.written])).toEqual([
      ['exports the report', 'allowances/test/slow.test.ts.yaml', false],
    ]);
    expect(proposals[0]?.yaml).toContain('test: exports the report');
    expect(existsSync(path.join(root, 'allowances'))).toBe(false);
  });
});
