import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/core/html/html-page.js';
import { renderTriageHtml } from '../../../src/core/html/html-triage.js';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { type TriageJson, toTriageJson } from '../../../src/core/triage/triage-format.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import { makeTriageInputs, makeTriageReport } from './html-factories.js';
import { blandStrings, markupSkeleton } from './html-markup.js';

const count = (text: string, re: RegExp): number => [...text.matchAll(re)].length;
type Finding = TriageJson['findings'][number];

const finding = (over: Partial<Finding> = {}): Finding => ({
  class: 'escape',
  project: null,
  fullName: 'a > b',
  file: 'test/a.test.ts',
  cause: 'the test fails on every re-run (5/5)',
  evidence: ['re-ran 5 times: 5/5 failed'],
  measured: true,
  action: 'fix the defect',
  rule: 'rerun-failed',
  ...over,
});

const report = (findings: readonly Finding[], over: Partial<TriageJson> = {}): TriageJson => {
  const counts = { infrastructure: 0, escape: 0, flake: 0, budget: 0 };
  for (const f of findings) counts[f.class] += 1;
  return {
    format: 'flakeguard-triage',
    version: 2,
    verdict: findings.length > 0 ? 'red' : 'green',
    exitCode: findings.length > 0 ? 1 : 0,
    counts,
    findings,
    ...over,
  };
};

describe('renderTriageHtml on a realistic red run', () => {
  const triage = makeTriageReport();
  const html = renderTriageHtml(triage);

  it('shows the verdict, the exit code and a count per class', () => {
    expect(triage.verdict).toBe('red');
    expect(html).toContain('<span class="verdict bad">run red</span>');
    expect(html).toContain(
      `exit code 1 \u00b7 ${triage.findings.length} findings: infrastructure ${triage.counts.infrastructure}, escape ${triage.counts.escape}, flake ${triage.counts.flake}, budget ${triage.counts.budget}`,
    );
    for (const c of ['infrastructure', 'escape', 'flake', 'budget'] as const) {
      expect(html).toContain(`<span class="count">${triage.counts[c]}</span><span class="label">${c}</span>`);
    }
    expect(count(html, /<span class="seg /g)).toBe(Object.values(triage.counts).filter((n) => n > 0).length);
  });

  it('shows every finding with cause, escaped evidence, badge and action, grouped by class', () => {
    expect(count(html, /<article class="card /g)).toBe(triage.findings.length);
    for (const f of triage.findings) {
      expect(html).toContain(escapeHtml(f.cause));
      expect(html).toContain(escapeHtml(f.action));
      for (const e of f.evidence) expect(html).toContain(escapeHtml(e));
    }
    expect(html).toContain('<h3>orders &gt; totals &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;</h3>');
    expect(html).not.toContain('<b>bold</b>');
    expect(count(html, /class="badge good" title="a re-run or a measurement confirmed it">measured</g)).toBe(
      triage.findings.filter((f) => f.measured).length,
    );
    expect(count(html, />inferred</g)).toBe(triage.findings.filter((f) => !f.measured).length);
    expect(html.indexOf('<h2>infrastructure')).toBeLessThan(html.indexOf('<h2>escape'));
    expect(html.indexOf('<h2>flake')).toBeLessThan(html.indexOf('<h2>budget'));
  });
});

describe('renderTriageHtml', () => {
  it("names a finding's owners next to its file, and nothing when it has none", () => {
    const page = renderTriageHtml(
      report([finding({ owners: ['@org/web', '@dana'] }), finding({ fullName: 'c', owners: [] })]),
    );
    expect(page).toContain('test/a.test.ts \u00b7 owners: @org/web @dana');
    expect(count(page, /owners:/g)).toBe(1);
  });

  it('gives the same page from the JSON built here or read back', () => {
    const direct = renderTriageHtml(toTriageJson(computeTriage(makeTriageInputs(), BUILT_IN_SIGNATURES)));
    expect(renderTriageHtml(JSON.parse(JSON.stringify(makeTriageReport())) as TriageJson)).toBe(direct);
  });

  it('folds long evidence and shows short evidence open', () => {
    const long = Array.from({ length: 40 }, (_, i) => `ci.log:${1000 + i}: at frame${i}`);
    const html = renderTriageHtml(
      report([finding({ evidence: long }), finding({ fullName: 'c', evidence: ['one line'] })]),
    );
    expect(html).toContain('<details class="pre"><summary>Evidence <span class="dim">(40 lines)</span>');
    expect(html).toContain('<details class="pre" open><summary>Evidence <span class="dim">(1 line)</span>');
  });

  it('names a run-level finding "the run" and a file-level one by its file', () => {
    const html = renderTriageHtml(
      report([
        finding({ class: 'infrastructure', fullName: null, file: null, measured: false }),
        finding({ class: 'infrastructure', fullName: null, file: 'test/x.test.ts' }),
      ]),
    );
    expect(html).toContain('<h3>the run</h3>');
    expect(html).toContain('<h3>test/x.test.ts</h3>');
    expect(html).toContain('>inferred</span>');
  });

  it('a green run with nothing to act on', () => {
    const html = renderTriageHtml(report([]));
    expect(html).toContain('<body class="good">');
    expect(html).toContain('run green');
    expect(html).toContain('nothing to act on');
    expect(html).not.toContain('class="classbar"');
  });

  it('property: data never changes the markup', () => {
    const nasty = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc
        .array(
          fc.constantFrom('<script>', '</pre>', '</details>', '"', "'", '&', '&lt;', '>', '\n', '\u0000', '<!--', 'x'),
          { maxLength: 10 },
        )
        .map((p) => p.join('')),
    );
    const arb = fc.array(
      fc.record({
        class: fc.constantFrom('infrastructure', 'escape', 'flake', 'budget') as fc.Arbitrary<Finding['class']>,
        project: fc.option(nasty, { nil: null }),
        fullName: fc.option(nasty, { nil: null }),
        file: fc.option(nasty, { nil: null }),
        cause: nasty,
        evidence: fc.array(nasty, { maxLength: 12 }),
        measured: fc.boolean(),
        action: nasty,
        rule: nasty,
      }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(arb, (findings) => {
        const r = report(findings);
        const html = renderTriageHtml(r);
        const bland = renderTriageHtml(
          blandStrings(r, (path) => ['class', 'verdict'].includes(path[path.length - 1] ?? '')),
        );
        expect(markupSkeleton(html)).toEqual(markupSkeleton(bland));
        expect(html).not.toMatch(/<script|<!--/i);
      }),
      { numRuns: 200 },
    );
  });
});
