/** Under GitHub Actions: annotations on stdout and a Markdown section appended to the step summary. */
import { appendFileSync } from 'node:fs';
import { formatGithubAnnotations, formatStepSummary } from '../core/budget/budget-github.js';
import type { BudgetReport } from '../core/budget/budget-report.js';

export interface GithubOutput {
  readonly annotations: string;
  /** Error text when the step summary could not be written. */
  readonly summaryError: string | null;
}

export function writeGithubOutput(report: BudgetReport, env: NodeJS.ProcessEnv, title: string): GithubOutput | null {
  if (env['GITHUB_ACTIONS'] !== 'true') return null;
  const summaryFile = env['GITHUB_STEP_SUMMARY'];
  let summaryError: string | null = null;
  if (summaryFile) {
    try {
      appendFileSync(summaryFile, formatStepSummary(report, title));
    } catch (error) {
      summaryError = `flakeguard: could not append to GITHUB_STEP_SUMMARY (${summaryFile}): ${(error as Error).message}`;
    }
  }
  return { annotations: formatGithubAnnotations(report), summaryError };
}
