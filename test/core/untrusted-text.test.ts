import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowanceKey } from '../../src/core/allowances/allowance-match.js';
import { formatBudgetReport } from '../../src/core/budget/budget-format.js';
import { formatGithubAnnotations } from '../../src/core/budget/budget-github.js';
import { computeBudgetReport } from '../../src/core/budget/budget-report.js';
import { formatTriage } from '../../src/core/triage/triage-format.js';
import { escapeTerminal, escapeWorkflowData, escapeWorkflowProperty } from '../../src/core/untrusted-text.js';
import { makeInput, makeTest } from './budget/budget-factories.js';

/** A control character, an ESC sequence, a raw line break or a bidi override: none may reach a terminal. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffd]/;
/** GitHub's runner takes a line whose first non-space characters are `::` for a workflow command. */
const COMMAND_LINE = /^\s*::/;

// Text built to hurt: workflow commands after line breaks, ESC sequences, CR, binary, `%0A` look-alikes.
const HOSTILE = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        '::error title=x::y',
        '::warning::w',
        '  ::set-output name=a::b',
        '\n',
        '\r\n',
        '\r',
        '\u001b[2J',
        '\u001b]0;t\u0007',
        '\u0000',
        '%0A',
        '%',
        ':',
        ',',
        'name',
        ' ',
        '\u202e',
        '\ufffd',
        '\u0085',
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join('')),
);

describe('escapeTerminal', () => {
  it.each([
    ['a\nb', 'a\\nb'],
    ['\u001b[31mred', '\\u001b[31mred'],
    ['::error title=x::y', '\\u003a:error title=x::y'],
    ['  ::warning::w', '  \\u003a:warning::w'],
    ['a ::b', 'a ::b'],
    ['bad \ufffd byte', 'bad \\ufffd byte'],
  ])('%j -> %j', (text, shown) => {
    expect(escapeTerminal(text)).toBe(shown);
  });

  it('property: one line, no control character, never a workflow command', () => {
    fc.assert(
      fc.property(HOSTILE, (text) => {
        const out = escapeTerminal(text);
        expect(out).not.toMatch(CONTROL);
        expect(out).not.toContain('\n');
        expect(out).not.toMatch(COMMAND_LINE);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('escapeWorkflowData and escapeWorkflowProperty', () => {
  it('use the documented escapes', () => {
    expect(escapeWorkflowData('50%\nnext\r')).toBe('50%25%0Anext%0D');
    expect(escapeWorkflowProperty('a,b:c%')).toBe('a%2Cb%3Ac%25');
    expect(escapeWorkflowData('\u001b[2J')).toBe('\\u001b[2J');
  });

  it('property: the result is one line without control characters, and unescapes to the text with controls made visible', () => {
    fc.assert(
      fc.property(HOSTILE, (text) => {
        for (const out of [escapeWorkflowData(text), escapeWorkflowProperty(text)]) {
          expect(out).not.toMatch(CONTROL);
          expect(out).not.toMatch(/[\r\n]/);
        }
        const back = escapeWorkflowData(text).replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%');
        expect(back.replace(/[\r\n]/g, '')).toBe(
          escapeTerminal(text.replace(/[\r\n]/g, '')).replace(/^(\s*)\\u003a/, '$1:'),
        );
      }),
      { numRuns: 500 },
    );
  });
});

function hostileReport(name: string, reason: string, message: string) {
  const quarantined = makeTest({ fullName: name, state: 'failed', errors: [{ message, frame: null }] });
  const failing = makeTest({
    fullName: `${name} 2`,
    file: `test/${reason}.test.ts`,
    state: 'failed',
    errors: [{ message, frame: null, type: reason }],
  });
  const slow = makeTest({ fullName: name, file: 'test/slow.test.ts', durationMs: 9000 });
  const flaky = makeTest({
    fullName: name,
    file: 'test/flaky.test.ts',
    flaky: true,
    retries: 1,
    errors: [{ message, frame: null }],
  });
  const quarantine = new Map([
    [
      allowanceKey({ file: quarantined.file, fullName: quarantined.fullName }),
      { id: 'q1', reason, link: null, expires: null, expired: false },
    ],
  ]);
  return computeBudgetReport(makeInput({ tests: [quarantined, failing, slow, flaky], quarantine, reason: 'failed' }));
}

describe('property: no test name, error message or quarantine reason emits a workflow command or a control sequence', () => {
  it('in the reporter block and in its GitHub annotations', () => {
    fc.assert(
      fc.property(HOSTILE, HOSTILE, HOSTILE, (name, reason, message) => {
        const report = hostileReport(`t ${name}`, reason, message);
        const block = formatBudgetReport(report);
        for (const line of block.split('\n')) {
          expect(line).not.toMatch(CONTROL);
          expect(line).not.toMatch(COMMAND_LINE);
        }
        const annotations = formatGithubAnnotations(report).trimEnd().split('\n');
        for (const line of annotations) {
          expect(line).not.toMatch(CONTROL);
          // Our own annotations only: ::error or ::warning with escaped properties and data.
          expect(line).toMatch(/^::(error|warning) (file=[^,:]*,)?(line=\d+,)?title=[^,:]*::/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("in triage's findings (evidence lines carry log excerpts)", () => {
    fc.assert(
      fc.property(HOSTILE, HOSTILE, (name, logLine) => {
        const finding = {
          class: 'escape',
          measured: false,
          file: 'test/a.test.ts',
          test: name,
          cause: `failed: ${logLine}`,
          evidence: [`log.txt:3: ${logLine}`, logLine],
          action: logLine,
        } as const;
        const text = formatTriage({
          verdict: 'red',
          exitCode: 1,
          findings: [finding],
          counts: { infrastructure: 0, escape: 1, flake: 0, budget: 0 },
          history: null,
        } as never);
        for (const line of text.split('\n')) {
          expect(line).not.toMatch(CONTROL);
          expect(line).not.toMatch(COMMAND_LINE);
        }
      }),
      { numRuns: 300 },
    );
  });
});
