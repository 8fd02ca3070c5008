import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/core/gate/gate-report.js';
import { GATE_VERDICTS } from '../../../src/core/gate/gate-report.js';
import type { GateReportTest } from '../../../src/core/gate/gate-report-test.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';
import { type GateHtmlTest, renderGateHtml, tryMarks } from '../../../src/core/html/html-gate.js';
import { escapeHtml } from '../../../src/core/html/html-page.js';
import { GATE_CASES, GATE_LOAD, makeGateReport } from './html-factories.js';
import { blandStrings, markupSkeleton } from './html-markup.js';

const count = (text: string, re: RegExp): number => [...text.matchAll(re)].length;

describe('renderGateHtml with owners', () => {
  it("names each test's owners after its place", () => {
    const base = makeGateReport();
    const page = renderGateHtml(
      { ...base, tests: base.tests.map((t, i) => (i === 0 ? { ...t, owners: ['@org/web'] } : t)) },
      { warnAt: base.warnAt },
    );
    expect(page).toContain(`${base.tests[0]?.file}:${base.tests[0]?.line}`);
    expect([...page.matchAll(/owners: @org\/web/g)]).toHaveLength(1);
  });
});

describe('renderGateHtml on a realistic failed gate', () => {
  const report = makeGateReport();
  const html = renderGateHtml(report, { warnAt: 0.8 });

  it('shows the verdict and a count tile per verdict', () => {
    expect(report.verdict).toBe('fail');
    expect(html).toContain('<body class="bad">');
    expect(html).toContain('<span class="verdict bad">failed</span>');
    for (const v of GATE_VERDICTS) {
      expect(html).toContain(`<span class="count">${report.counts[v]}</span><span class="label">${v}</span>`);
    }
    expect(html).toContain('<span class="count">1</span><span class="label">not run</span>');
    expect(html).toContain(
      '9 new or changed tests since origin/main (3f9c1e0a7b), 5 tries each under load (2 busy workers)',
    );
  });

  it('charts one series per test, the near-budget test as 4.90 s of 5.00 s', () => {
    expect(count(html, /<g class="series"/g)).toBe(report.tests.length);
    for (const t of report.tests) expect(html).toContain(`data-test="${escapeHtml(`${t.file} > ${t.fullName}`)}"`);
    expect(html).toContain('>max 4.90 s</text>');
    expect(html).toContain('>of 5.00 s \u00b7 98%</text>');
    expect(html).toContain('>limit 12.00 s</text>');
  });

  it('shows each test with its verdict, selection, figures, failure-rate bound and first error, all escaped', () => {
    for (const t of report.tests) {
      expect(html).toContain(`<h3>${escapeHtml(t.fullName)}</h3>`);
      expect(html).toContain(escapeHtml(t.reason));
      if (t.failureRateText) expect(html).toContain(escapeHtml(t.failureRateText));
    }
    expect(html).toContain(
      'parser &gt; handles &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; &#39;quotes&#39;',
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('5/5 passed: failure rate below 45.1% at 95% confidence');
    expect(html).toContain(
      '<span class="badge warn" title="failed every try under load, passed some without load">load-sensitive</span>',
    );
    expect(html).toContain('test/parse/names.test.ts:5 \u00b7 renamed from \u201cparser &gt; handles quotes\u201d');
    expect(html).toContain(
      'test/import/rows.test.ts:20 \u00b7 moved from \u201ctest/rows.test.ts &gt; import &gt; loads 10k rows from CSV\u201d',
    );
    expect(html).toContain('limit <b>12.00 s</b> <span class="dim">(allowance b41c09e2)</span>');
    expect(html).toContain('AssertionError: expected 2.5 to be 2\n    at test/api/totals.test.ts:33:18');
    expect(html).toContain('without load <b>3/3</b> passed');
    expect(html).toContain('alone <b>0/1</b> passed');
  });

  it('shows the load as measured', () => {
    expect(html).toContain('<dd>2 busy workers on 2 CPUs</dd>');
    expect(html).toContain('<dd>93% of the machine</dd>');
    expect(html).toContain('<dd>0.61 \u2192 2.87</dd>');
    expect(html).toContain('<dd>47% of a CPU</dd>');
    expect(html).toContain('Load worker pids: 41877, 41878');
  });

  it('shows the proposed allowances, the tests not run and the notes', () => {
    expect(report.proposals.length).toBe(2);
    for (const p of report.proposals) expect(html).toContain(`<pre>${escapeHtml(p.yaml.trimEnd())}</pre>`);
    expect(html).toContain('<h2>Proposed allowances</h2>');
    expect(html).toContain('tracker &gt; each row %s');
    expect(html).toContain('base origin/main is 3 commits behind the remote');
  });

  it('draws which tries of the flaky test failed', () => {
    expect(html).toContain('url(#fg-failed)');
    expect(html).not.toContain('passed or failed (not recorded which)');
  });
});

describe('renderGateHtml: options and other reports', () => {
  it('renders the JSON `gate --json` prints, read back, the same as the report', () => {
    const report = makeGateReport();
    expect(renderGateHtml(JSON.parse(JSON.stringify(report)) as GateReport)).toBe(renderGateHtml(report));
  });

  it('uses warnAt from the options, else from the report, else 80%', () => {
    const report = makeGateReport();
    expect(renderGateHtml(report, { warnAt: 0.7 })).toContain('warnAt 70%');
    expect(renderGateHtml({ ...report, warnAt: 0.9 })).toContain('warnAt 90%');
    expect(renderGateHtml(report)).toContain('warnAt 80%');
  });

  it('a passing gate without load is green and says there was no load', () => {
    const report = makeGateReport([GATE_CASES[0]!], {
      ...GATE_LOAD,
      workers: 0,
      pids: [],
      loadavgBefore: null,
      loadavgAfter: null,
      workersMachineShare: null,
    });
    const html = renderGateHtml(report);
    expect(report.verdict).toBe('pass');
    expect(html).toContain('<body class="good">');
    expect(html).toContain('<span class="verdict good">passed</span>');
    expect(html).toContain('<dd>none (--load 0)</dd>');
    expect(html).not.toContain('Proposed allowances');
  });

  it('an empty gate still renders a page', () => {
    const html = renderGateHtml(makeGateReport([]));
    expect(html).toContain('nothing to chart');
    expect(() => markupSkeleton(html)).not.toThrow();
  });
});

describe('tryMarks', () => {
  const base = makeGateReport().tests;
  const find = (v: string): GateReportTest => base.find((t) => t.verdict === v)!;

  it('marks each try by its own state', () => {
    expect(tryMarks(find('stable'))).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(tryMarks(find('failing'))).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    const t: GateHtmlTest = {
      ...base.find((x) => x.verdict === 'flaky' && !x.loadSensitive)!,
      tries: ['passed', 'failed', 'passed', 'skipped', 'hung'].map((state) => ({
        state: state as GateTry['state'],
        durationMs: 5,
        cold: true,
      })),
    };
    expect(tryMarks(t)).toEqual(['passed', 'failed', 'passed', 'failed', 'failed']);
  });
});

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        '<script>alert(1)</script>',
        '"',
        "'",
        '&',
        '&amp;',
        '<',
        '>',
        '</style>',
        '<!--',
        ']]>',
        '\n',
        '\u0000',
        'a > b',
        '${x}',
        '.*?[a-z]+$',
        '<img src=x onerror=alert(1)>',
        '\u2028',
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join('')),
);

const ENUMS = new Set(['verdict', 'selection', 'limitSource', 'version', 'state']);

describe('renderGateHtml property: data never changes the markup', () => {
  it('random names, files, reasons, errors, YAML and notes produce the same tags as bland text', () => {
    const report = makeGateReport();
    const arb = fc.record({
      names: fc.array(nasty, { minLength: report.tests.length, maxLength: report.tests.length }),
      files: fc.array(nasty, { minLength: report.tests.length, maxLength: report.tests.length }),
      reason: nasty,
      error: nasty,
      yaml: nasty,
      notice: nasty,
      baseRef: nasty,
      platform: nasty,
    });
    fc.assert(
      fc.property(arb, (d) => {
        const r: GateReport = {
          ...report,
          baseRef: d.baseRef,
          platform: d.platform,
          notices: [d.notice],
          tests: report.tests.map((t, i) => ({
            ...t,
            fullName: d.names[i] ?? '',
            file: d.files[i] ?? '',
            reason: d.reason,
            error: t.error === null ? null : d.error,
            previous: t.previous && { file: d.notice, fullName: d.reason },
          })),
          proposals: report.proposals.map((p) => ({
            ...p,
            fullName: d.names[0] ?? '',
            yaml: d.yaml,
            reason: d.reason,
            storeFile: d.notice,
          })),
          notRun: report.notRun.map((n) => ({ ...n, fullName: d.error, reason: d.yaml })),
        };
        const html = renderGateHtml(r);
        const bland = renderGateHtml(blandStrings(r, (path) => ENUMS.has(path[path.length - 1] ?? '')));
        expect(markupSkeleton(html)).toEqual(markupSkeleton(bland));
        expect(html).not.toMatch(/<script|<img|<!--/i);
        for (const n of d.names) expect(html).toContain(`<h3>${escapeHtml(n)}</h3>`);
      }),
      { numRuns: 150 },
    );
  });
});
