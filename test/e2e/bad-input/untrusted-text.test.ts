/**
 * Bad input catalogue, class 4: text flakeguard did not write. Test names, error messages,
 * quarantine reasons, log lines and a garbage record carry ESC sequences, binary bytes and lines
 * that are GitHub workflow commands; every command that prints them runs under GITHUB_ACTIONS.
 * The rule (core/untrusted-text.ts): on the terminal, control characters are made visible and no
 * line starts with `::`; the only workflow commands are flakeguard's own annotations, with their
 * data and properties escaped as GitHub documents. The commands run in this process
 * (test/helpers/in-process-cli.ts: the subject is what they print); the reporter's Vitest run and
 * one whole gate (names and errors reaching the gate through Vitest) stay spawned. What the gate
 * prints of every field of its report is tried by `gate --merge` of a report carrying the hostile
 * text in each (built by the real computeGateReport). The store is a copy of the run's template.
 * History is on (flakeguard.yaml) only for the commands that read or write the store: the
 * reporter's record is stored by `history ingest` in this process (the code the reporter stores
 * with, ingestRunRecord; test/e2e/history.test.ts keeps the reporter storing), so neither the
 * reporter's Vitest nor the gate starts PGlite (over a CPU-s each). The commands that resolve
 * quarantines and allowances run with Vitest uninstalled for the while (withoutVitest: the test files
 * are then those of Vitest's default include, not asked of a Vitest started per command): what they
 * print is the subject, not which files are tests. Needs `npm run build`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/core/gate/gate-report.js';
import { makeGateReport } from '../../core/html/html-factories.js';
import { createFixture, type Fixture, REPORTER_BUILT, type RunResult, withoutVitest } from '../../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../../helpers/history-template.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { gateAtNoSlowdown } from '../gate-fixtures.js';

const NAME = 'evil \u001b[2J\n::error title=pwned::from a name\r\n  ::warning::w \u202e';
const ERROR = 'boom \u001b]0;title\u0007\n::error title=pwned::from an error';
const REASON = 'flaky on CI\n::error title=pwned::from a reason \u001b[31m';
const LOG = Buffer.concat([
  Buffer.from('FAIL test/x.test.ts > evil\n::error title=pwned::from a log\n\u001b[31mred\u0000 '),
  Buffer.from([0xff, 0xfe, 0x00, 0x1b]),
  Buffer.from('\n::add-mask::x\n Test Files  1 failed (1)\n'),
]);
const TEST_FILE = `import { expect, it } from 'vitest';
it(${JSON.stringify(NAME)}, () => { throw new Error(${JSON.stringify(ERROR)}); });
it(${JSON.stringify(`${NAME} slow`)}, async () => { await new Promise((r) => setTimeout(r, 300)); });
it(${JSON.stringify(`${NAME} quarantined`)}, () => { expect(${JSON.stringify(ERROR)}).toBe('x'); });
`;

/** A gate report whose names, files, first errors, not-run reasons and notices are hostile text. */
function hostileGateReport(): GateReport {
  const failed = { state: 'failed' as const, durationMs: 40, error: ERROR };
  const passed = { state: 'passed' as const, durationMs: 30 };
  const report = makeGateReport([
    { file: `test/${NAME}.test.ts`, name: NAME, line: 2, selection: 'new', tries: [passed, failed, passed] },
    { file: 'test/x.test.ts', name: `${NAME} slow`, line: 3, selection: 'changed', tries: [failed, failed] },
  ]);
  return {
    ...report,
    // A merged report is a file from another job: its base ref is text flakeguard did not write either.
    baseRef: `main${NAME}`,
    shard: { index: 1, count: 1 },
    notRun: [{ file: 'test/x.test.ts', fullName: NAME, line: 4, reason: ERROR }],
    notices: [REASON],
  };
}

/** A control character (line breaks apart), ESC included, or the replacement character of raw binary. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffd]/;
/** flakeguard's own annotations: ::error/::warning, escaped properties, a title that starts with flakeguard. */
const OWN_ANNOTATION = /^::(error|warning) (file=[^,:]*,)?(line=\d+,)?title=flakeguard[^,:]*::[^\r]*$/;

const CONFIG = 'budget:\n  test: 100ms\n';

let fx: Fixture;
let summary: string;
const env = (): Record<string, string> => ({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { reporters: [${JSON.stringify(REPORTER_BUILT)}] } });\n`,
      'flakeguard.yaml': CONFIG,
      'test/a.test.ts': "import { it } from 'vitest';\nit('plain', () => {});\n",
      'ci/bad.json': '\u001b[2J\n::error title=pwned::from a record\n\u0000',
    },
  });
  fx.write('ci/log.txt', LOG as unknown as string);
  fx.write('ci/gate.json', JSON.stringify(hostileGateReport()));
  // The store `history` reads: a copy of the run's template (its creation is not the subject).
  seedHistoryStore(fx.root);
  summary = path.join(fx.root, 'ci/summary.md');
  await fx.git(['checkout', '-q', '-b', 'feature']);
  fx.write('test/x.test.ts', TEST_FILE);
  await fx.git(['add', '-A']);
  await fx.git(['commit', '-qm', 'hostile tests']);
  const added = await runCliInProcess(fx.root, [
    'quarantine',
    'add',
    '--file',
    'test/x.test.ts',
    '--test',
    `${NAME} quarantined`,
    '--reason',
    REASON,
  ]);
  expect(added.exitCode, added.output).toBe(0);
}, 60_000);
afterAll(() => fx.remove());

/** `run` with history on in flakeguard.yaml (the embedded store), then off again as committed. */
async function withHistory<T>(run: () => Promise<T>): Promise<T> {
  fx.write('flakeguard.yaml', `history: true\n${CONFIG}`);
  try {
    return await run();
  } finally {
    fx.write('flakeguard.yaml', CONFIG);
  }
}

function expectSafe(run: RunResult): void {
  for (const line of `${run.stdout}\n${run.stderr}`.split('\n')) {
    expect(line, JSON.stringify(line)).not.toMatch(CONTROL);
    if (/^\s*::/.test(line)) expect(line, JSON.stringify(line)).toMatch(OWN_ANNOTATION);
  }
}

const cli = (args: readonly string[], vars: Record<string, string>): Promise<RunResult> =>
  runCliInProcess(fx.root, args, vars);

const CASES: readonly (readonly [string, () => Promise<RunResult>])[] = [
  [
    'the reporter (block, warnings, annotations)',
    async () => {
      const run = await fx.vitest([], env());
      // Its run record into the store, for triage and history below.
      await ingestRunRecords(fx, `history: true\n${CONFIG}`);
      fx.write('flakeguard.yaml', CONFIG);
      return run;
    },
  ],
  [
    'triage of the run record',
    () => withHistory(() => cli(['triage', '--exit-code', '1', '--html', 'ci/triage.html'], env())),
  ],
  [
    'triage --log with ESC, binary and workflow commands',
    () => cli(['triage', '--log', 'ci/log.txt', '--exit-code', '1', '--markdown', 'ci/triage.md'], env()),
  ],
  ['quarantine list', () => withoutVitest(fx, () => cli(['quarantine', 'list'], env()))],
  ['quarantine check', () => withoutVitest(fx, () => cli(['quarantine', 'check'], env()))],
  ['allowances list', () => withoutVitest(fx, () => cli(['allowances', 'list'], env()))],
  ['history ingest of a garbage record', () => withHistory(() => cli(['history', 'ingest', 'ci/bad.json'], env()))],
  ['history (names from the store)', () => withHistory(() => cli(['history'], env()))],
  [
    'gate (names and first errors of new tests)',
    // At no slowdown, one try each: the subject is what the gate prints, not the factor or the count.
    () => fx.flakeguard(gateAtNoSlowdown(1, 0, '--base', 'main'), env()),
  ],
  [
    'gate --merge of a report with hostile text in every field',
    () => cli(['gate', '--merge', 'ci/gate.json', '--markdown', 'ci/gate.md'], env()),
  ],
];

describe('untrusted text never becomes a control sequence or a workflow command', () => {
  it.each(CASES)('%s', async (_what, run) => {
    const result = await run();
    expect(result.exitCode, result.output).not.toBe(130);
    expectSafe(result);
  });

  it('the step summary and the Markdown report hold the names without control characters', () => {
    expect(readFileSync(summary, 'utf8')).not.toMatch(CONTROL);
    expect(readFileSync(path.join(fx.root, 'ci/triage.md'), 'utf8')).not.toMatch(CONTROL);
    expect(readFileSync(path.join(fx.root, 'ci/gate.md'), 'utf8')).not.toMatch(CONTROL);
  });
});
