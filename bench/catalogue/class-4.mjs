// Class 4: untrusted text reaching a terminal or the CI runner (GITHUB_ACTIONS=true). The rule
// (core/untrusted-text.ts): no control character on the output, no line that is a workflow command
// but flakeguard's own annotations.
import { flakeguardSync, write } from './run-case.mjs';

const NAME = 'evil \u001b[2J\n::error title=pwned::from a name';
const ERROR = 'boom \u001b]0;t\u0007\n::error title=pwned::from an error';
const REASON = 'flaky\n::error title=pwned::from a reason \u001b[31m';
const LOG = Buffer.concat([
  Buffer.from('FAIL test/x.test.ts > evil\n::error title=pwned::from a log\n\u001b[31mred\u0000 '),
  Buffer.from([0xff, 0xfe]),
  Buffer.from('\n'),
]);
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffd]/;
const OWN = /^::(error|warning) (file=[^,:]*,)?(line=\d+,)?title=flakeguard[^,:]*::/;

function unsafe(run) {
  for (const line of `${run.stdout}\n${run.stderr}`.split('\n')) {
    if (CONTROL.test(line)) return `a control character: ${JSON.stringify(line).slice(0, 80)}`;
    if (/^\s*::/.test(line) && !OWN.test(line)) return `a workflow command: ${JSON.stringify(line).slice(0, 80)}`;
  }
  return '';
}

const hostileProject = (dir) => {
  write(dir, 'flakeguard.yaml', 'budget:\n  test: 100ms\n');
  write(
    dir,
    'test/x.test.ts',
    `import { it } from 'vitest';\nit(${JSON.stringify(NAME)}, () => { throw new Error(${JSON.stringify(ERROR)}); });\nit(${JSON.stringify(`${NAME} slow`)}, async () => { await new Promise((r) => setTimeout(r, 300)); });\nit(${JSON.stringify(`${NAME} q`)}, () => { throw new Error(${JSON.stringify(ERROR)}); });\n`,
  );
  flakeguardSync(dir, ['quarantine', 'add', '--file', 'test/x.test.ts', '--test', `${NAME} q`, '--reason', REASON]);
  write(dir, 'ci/log.txt', LOG);
  write(dir, 'ci/bad.json', '\u001b[2J\n::error title=pwned::from a record\n\u0000');
};

const GH = { GITHUB_ACTIONS: 'true' };
export const CASES = [
  { case: 'the reporter: names, errors, a quarantine reason', command: ['vitest'] },
  {
    case: 'triage --log with ESC, binary and ::error lines',
    command: ['triage', '--log', 'ci/log.txt', '--exit-code', '1'],
  },
  { case: 'quarantine list: a reason with ::error', command: ['quarantine', 'list'] },
  { case: 'allowances list: hostile names', command: ['allowances', 'list'] },
  { case: 'history ingest: a garbage record', command: ['history', 'ingest', 'ci/bad.json', '--root', '.'] },
].map((c) => ({ class: 4, ...c, env: GH, setup: hostileProject, check: unsafe }));
