/**
 * Phrases shared by the terminal block, the GitHub annotations and the step summary: a test's
 * place, its figures, the allowance command and the last line that says why a run is red. Pure.
 */

import { formatDuration, serializeDuration } from '../duration.js';
import { formatOwners } from '../owners/codeowners.js';
import { describeQuarantine, formatRecentFailures, type QuarantinedTest } from '../quarantine/run-quarantine.js';
import type { BudgetViolation, RecordedError, RecordedUnhandledError } from '../record/run-record.js';
import type { RedCause } from '../record/run-verdict.js';
import { projectTag } from '../test-id.js';
import { hasUnsafeCharacter } from '../untrusted-text.js';
import { describeLimit } from './budget.js';
import type { BudgetReport, FlakyTest, NearBudget } from './budget-report.js';

type Entry = (BudgetViolation | NearBudget) & { readonly allowanceId?: string };

export function oneLine(text: string, max = 160): string {
  const first = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** `test/a.test.ts:12 [node]`: the file, its line when known, and the Vitest project when it has a name. */
export function formatPlace(entry: {
  readonly file: string;
  readonly line: number | null;
  readonly project?: string | null | undefined;
}): string {
  return `${entry.line === null ? entry.file : `${entry.file}:${entry.line}`}${projectTag(entry.project ?? null)}`;
}

export function limitLabel(entry: Entry, platform: string): string {
  return describeLimit(
    { source: entry.limitSource, platformKey: entry.platformKey, allowanceId: entry.allowanceId },
    platform,
    entry.kind,
  );
}

/** Two durations as text that shows they differ: `5.001s` and `5.00s` rather than `5.00s` twice. */
function formatDurationPair(a: number, b: number): [string, string] {
  const [fa, fb] = [formatDuration(a), formatDuration(b)];
  if (fa !== fb || a === b) return [fa, fb];
  return a >= 1000 || b >= 1000
    ? [`${(a / 1000).toFixed(3)}s`, `${(b / 1000).toFixed(3)}s`]
    : [`${a.toFixed(1)}ms`, `${b.toFixed(1)}ms`];
}

/** `5.31s > 5.00s (linux budget)` */
export function formatOverFigures(entry: Entry, platform: string): string {
  const [duration, limit] = formatDurationPair(entry.durationMs, entry.limitMs);
  return `${duration} > ${limit} (${limitLabel(entry, platform)})`;
}

/** `4.90s of 5.00s (98%, linux budget)` */
export function formatNearFigures(entry: Entry, platform: string): string {
  const share = Math.floor((entry.durationMs / entry.limitMs) * 100);
  return `${formatDuration(entry.durationMs)} of ${formatDuration(entry.limitMs)} (${share}%, ${limitLabel(entry, platform)})`;
}

export function formatError(error: RecordedError | null): string {
  if (error === null) return 'no error recorded';
  const text = oneLine(error.type ? `${error.type}: ${error.message}` : error.message);
  return error.frame === null ? text : `${text} (${error.frame})`;
}

export function formatFlaky(flaky: FlakyTest): string {
  return `passed after ${plural(flaky.retries, 'retry', 'retries')}; first error: ${formatError(flaky.firstError)}`;
}

export function formatUnhandled(error: RecordedUnhandledError): string {
  const from =
    error.file === null
      ? '(Vitest named no test file)'
      : `from ${error.file}${error.fullName ? ` (test "${error.fullName}")` : ''}`;
  return `${error.type} ${from}: ${oneLine(error.message)}`;
}

/** `  (owners: @org/web)` after a test the report names; nothing for a file without owners. */
export function ownersNote(report: Pick<BudgetReport, 'owners'>, file: string): string {
  const text = formatOwners(report.owners?.get(file));
  return text === '' ? '' : `  (${text})`;
}

/**
 * Quotes for a POSIX shell: double quotes when safe, else single quotes; a text with a character
 * the terminal would show escaped (a line break, ESC, a bidi override: core/untrusted-text.ts) in
 * dollar-single quotes (`$'line one\nline two'`: bash, zsh, ksh and POSIX.1-2024 sh), whose escapes
 * the shell turns back into those characters, so the printed command, pasted, names the test.
 */
export function shellQuote(text: string): string {
  if (/^[\w ./>:@+,=-]*$/.test(text)) return `"${text}"`;
  if (hasUnsafeCharacter(text)) return dollarQuote(text);
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const C_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** `$'...'` with every character that is not plain printable text as an escape. */
function dollarQuote(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const known = C_ESCAPES[ch];
    if (known !== undefined) out += known;
    else if (cp < 0x80 && hasUnsafeCharacter(ch)) out += `\\x${hex(cp, 2)}`;
    else if (hasUnsafeCharacter(ch)) out += cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
    else out += ch;
  }
  return `$'${out}'`;
}

/** A budget with about 20% headroom over the measured duration, rounded up to half a second. */
function suggestAllowanceBudget(durationMs: number): number {
  return Math.max(500, Math.ceil((durationMs * 1.2) / 500) * 500);
}

export function formatAllowanceCommand(entry: {
  readonly file: string;
  readonly fullName: string | null;
  readonly durationMs: number;
}): string {
  const budget = serializeDuration(suggestAllowanceBudget(entry.durationMs));
  return `flakeguard allowances add --file ${shellQuote(entry.file)} --test ${shellQuote(entry.fullName ?? '')} --budget ${budget} --reason "<why it needs more time>"`;
}

function groupByFile(errors: readonly RecordedUnhandledError[]): string {
  const counts = new Map<string, number>();
  for (const e of errors) {
    const where = `${e.type} from ${e.file ?? 'an unknown file'}`;
    counts.set(where, (counts.get(where) ?? 0) + 1);
  }
  return [...counts].map(([where, n]) => (n === 1 ? where : `${where} ×${n}`)).join(', ');
}

function describeCause(cause: RedCause): string {
  switch (cause.kind) {
    case 'failing-tests':
      return plural(cause.count, 'failing test');
    case 'budget': {
      const parts = [
        cause.tests > 0 ? plural(cause.tests, 'test') : '',
        cause.files > 0 ? plural(cause.files, 'file') : '',
      ];
      return `failed on duration budgets: ${parts.filter(Boolean).join(' and ')} over budget`;
    }
    case 'unhandled-errors':
      return `${plural(cause.errors.length, 'unhandled error')} (${groupByFile(cause.errors)})`;
    case 'load-errors':
      return `${plural(cause.files.length, 'file')} failed to load (${cause.files.map((f) => `${f.file}: ${oneLine(f.message, 100)}`).join('; ')})`;
    case 'hook-errors':
      return `a beforeAll/afterAll hook failed in ${cause.files.map((f) => `${f.file}: ${oneLine(f.message, 100)}`).join('; ')}`;
    case 'crashed-worker': {
      const files = cause.files.length > 0 ? ` while running ${cause.files.join(', ')}` : '';
      return `a test worker crashed${files}${cause.message ? ` (${oneLine(cause.message, 100)})` : ''}`;
    }
    case 'allowance-errors':
      return `${plural(cause.messages.length, 'allowance error')} (${oneLine(cause.messages[0] ?? '', 100)})`;
    case 'interrupted':
      return 'the run was interrupted';
    case 'no-tests':
      return 'no test file ran';
    case 'unknown':
      return `Vitest set exit code ${cause.exitCode ?? '?'} with no failing test, budget violation, unhandled error or load error that a reporter can see (a coverage threshold or typecheck error would do this; see Vitest's summary above)`;
    default: {
      const never: never = cause;
      return never;
    }
  }
}

/** Failures under an applying quarantine: listed, never counted against the run. */
export function quarantinedFailures(report: BudgetReport): readonly QuarantinedTest[] {
  return report.quarantined.filter((q) => q.state === 'failed' && !q.quarantine.expired);
}

/** Failed tests whose quarantine has ended: they fail the run, and the report says since when. */
export function expiredQuarantineFailures(report: BudgetReport): readonly QuarantinedTest[] {
  return report.quarantined.filter((q) => q.state === 'failed' && q.quarantine.expired);
}

/** `failed under quarantine 3fa2c1d0 until 2027-01-15: flaky on CI; first error: ...` */
export function formatQuarantined(q: QuarantinedTest): string {
  const recent = q.recent ? `; ${formatRecentFailures(q.recent)}` : '';
  return `${q.state === 'failed' ? 'failed' : 'passed'} under ${describeQuarantine(q.quarantine)}${recent}${q.state === 'failed' ? `; ${formatError(q.firstError)}` : ''}`;
}

/** The last line of the run: green with figures, or red with every cause. */
export function formatVerdictLine(report: BudgetReport): string {
  const { verdict } = report;
  if (!verdict.red) {
    const checked = report.tests.filter((t) => t.status !== 'unchecked').length;
    const excused = quarantinedFailures(report).length;
    const extras = [
      report.near.length > 0 ? `${report.near.length} near budget` : '',
      report.flaky.length > 0 ? `${report.flaky.length} flaky (passed after retry)` : '',
      excused > 0 ? `${plural(excused, 'quarantined test')} failed (not counted)` : '',
    ].filter(Boolean);
    return `flakeguard: ${plural(checked, 'test')} within duration budgets${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
  }
  const texts = verdict.causes.map(describeCause);
  const onlyBudget = verdict.causes.length === 1 && verdict.causes[0]?.kind === 'budget';
  if (onlyBudget) return `flakeguard: run ${texts[0]} (no test failed)`;
  const failing = verdict.causes.some((c) => c.kind === 'failing-tests');
  return failing
    ? `flakeguard: run failed: ${texts.join('; ')}`
    : `flakeguard: run failed with no failing test: ${texts.join('; ')}`;
}
