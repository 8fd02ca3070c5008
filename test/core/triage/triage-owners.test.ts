import { describe, expect, it } from 'vitest';
import { GITHUB_COMMENT_LIMIT } from '../../../src/core/markdown/pr-comment.js';
import { ownersOfPath, parseCodeowners } from '../../../src/core/owners/codeowners.js';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { formatTriage, toTriageJson } from '../../../src/core/triage/triage-format.js';
import { formatTriageMarkdown } from '../../../src/core/triage/triage-markdown.js';
import { filterFindingsByOwner, withFindingOwners } from '../../../src/core/triage/triage-owners.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type { ObservedTest, TriageInputs } from '../../../src/core/triage/triage-types.js';
import { makeObservedTest, makeTriageInputs } from './triage-factories.js';

const failed = (file: string, name: string): ObservedTest =>
  makeObservedTest({ file, fullName: name, errors: [`AssertionError: ${name} broke`] });
const inputs = (tests: ObservedTest[]): TriageInputs => makeTriageInputs({ tests });
const codeowners = parseCodeowners('* @org/all\n/web/ @org/web\n/api/ @org/api @dana\n', 'CODEOWNERS');
const ownersOf = (file: string): string[] => ownersOfPath(codeowners, file);

describe('triage findings with owners', () => {
  const report = withFindingOwners(
    computeTriage(inputs([failed('web/a.test.ts', 'cart'), failed('api/b.test.ts', 'pay')]), BUILT_IN_SIGNATURES),
    ownersOf,
  );

  it('each finding names its test file owners, in the text, the JSON and the comment', () => {
    expect(toTriageJson(report).findings.map((f) => [f.file, f.owners])).toEqual([
      ['api/b.test.ts', ['@org/api', '@dana']],
      ['web/a.test.ts', ['@org/web']],
    ]);
    expect(formatTriage(report)).toContain('   owners: @org/api @dana');
    const md = formatTriageMarkdown(report);
    expect(md.split('\n')[0]).toBe('<!-- flakeguard:triage -->');
    expect(md).toContain('**Do first:**');
    expect(md).toContain('· owners: @org/api @dana');
  });

  it("--owner keeps that owner's findings, recounts, and says how many it left out", () => {
    const web = filterFindingsByOwner(report, 'org/web');
    expect(web.findings.map((f) => f.file)).toEqual(['web/a.test.ts']);
    expect(web.counts.escape).toBe(1);
    expect(formatTriage(web)).toContain('--owner org/web: 1 finding of other owners or of the whole run not shown');
    expect(toTriageJson(web).ownerFilter).toEqual({ owner: 'org/web', hidden: 1 });
  });

  it('without CODEOWNERS: no owners line, and empty owners in the JSON', () => {
    const none = withFindingOwners(
      computeTriage(inputs([failed('web/a.test.ts', 'cart')]), BUILT_IN_SIGNATURES),
      () => [],
    );
    expect(formatTriage(none)).not.toContain('owners');
    expect(toTriageJson(none).findings[0]?.owners).toEqual([]);
  });

  it('500 failures: the comment stays under the limit, keeps the marker and counts what it left out', () => {
    const many = computeTriage(
      inputs(Array.from({ length: 500 }, (_, i) => failed(`web/t${i}.test.ts`, `test ${i} ${'x'.repeat(200)}`))),
      BUILT_IN_SIGNATURES,
    );
    const md = formatTriageMarkdown(withFindingOwners(many, ownersOf));
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md.startsWith('<!-- flakeguard:triage -->\n')).toBe(true);
    expect(md).toMatch(/… and \d+ more not shown/);
    expect(md).toContain('<summary>escape (500)</summary>');
  });
});
