/**
 * What `flakeguard replay` saw (docs/replay.md): the conditions, each try's outcome, how many
 * failed; computed from the tries, then formatted, and its exit code: 1 when any try failed, 0 when
 * none did (a test that did not run is an error before this, exit 2). Pure.
 */
import { formatDuration } from '../duration.js';
import { describeConditions, type ReplayConditions, replayCommand } from './replay-command.js';

export interface ReplayTry {
  readonly state: 'passed' | 'failed' | 'skipped' | 'hung';
  readonly durationMs: number;
  /** The seed the try's random source started from, when it was seeded. */
  readonly seed?: number;
  readonly error?: string;
}

export interface ReplayReport {
  readonly command: string;
  readonly conditions: string;
  readonly tries: readonly ReplayTry[];
  readonly failed: number;
  /** "3/10": the tries that failed (a hung try counts as failed) of those run. */
  readonly reproduced: string;
}

const failedTry = (t: ReplayTry): boolean => t.state === 'failed' || t.state === 'hung';

export function computeReplayReport(conditions: ReplayConditions, tries: readonly ReplayTry[]): ReplayReport {
  const failed = tries.filter(failedTry).length;
  return {
    command: replayCommand(conditions),
    conditions: describeConditions(conditions),
    tries,
    failed,
    reproduced: `${failed}/${tries.length}`,
  };
}

/** The first line of an error, at most 160 characters. */
function firstLine(error: string): string {
  const line = error.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

export function formatReplayReport(report: ReplayReport): string {
  const lines = [`replay: ${report.command}`, `conditions: ${report.conditions}`];
  report.tries.forEach((t, i) => {
    const seed = t.seed === undefined ? '' : ` seed ${t.seed}`;
    const error = t.error === undefined || !failedTry(t) ? '' : `: ${firstLine(t.error)}`;
    lines.push(`  try ${i + 1}: ${t.state} in ${formatDuration(t.durationMs)}${seed}${error}`);
  });
  lines.push(
    report.failed === 0
      ? `passed all ${report.tries.length} tries: it did not fail under these conditions`
      : `failed ${report.reproduced} tries`,
  );
  return `${lines.join('\n')}\n`;
}

export function replayExitCode(report: ReplayReport): 0 | 1 {
  return report.failed > 0 ? 1 : 0;
}
