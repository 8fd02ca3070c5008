/**
 * An allowance entry as the text flakeguard writes into an allowance file: one key a line, each
 * value on one line that reads back exactly (allowance-text.ts yamlScalar).
 */
import { serializeDuration } from '../duration.js';
import type { PlatformValue } from '../platform-value.js';
import type { Allowance } from './allowance.js';
import { yamlScalar } from './allowance-text.js';
import { type QuarantineTerms, quarantineTermsToYaml } from './quarantine-terms.js';

/** An entry to write: an allowance without its place in a file (it has none yet). */
export type NewAllowanceEntry = Omit<Allowance, 'at' | 'commit' | 'quarantine'> & {
  readonly commit?: string | null;
  readonly quarantine?: QuarantineTerms | null;
};

export function serializeBudget(budget: PlatformValue<number>): string {
  if (budget.kind === 'single') return serializeDuration(budget.value);
  const parts = Object.entries(budget.values).map(([k, v]) => `${k}: ${serializeDuration(v)}`);
  return `{ ${parts.join(', ')} }`;
}

export function serializeEntry(entry: NewAllowanceEntry): string {
  const lines = [
    `- id: ${yamlScalar(entry.id)}`,
    `  test: ${yamlScalar(entry.fullName)}`,
    `  file: ${yamlScalar(entry.file)}`,
    ...(entry.fingerprint === null ? [] : [`  fingerprint: ${yamlScalar(entry.fingerprint)}`]),
    ...(entry.commit === null || entry.commit === undefined ? [] : [`  commit: ${yamlScalar(entry.commit)}`]),
    ...(entry.budget === null
      ? []
      : [`  budget: ${serializeBudget(entry.budget)}`, `  reason: ${yamlScalar(entry.reason)}`]),
    ...(entry.quarantine ? serializeQuarantine(entry.quarantine, '  ') : []),
    `  added: ${yamlScalar(entry.added)}`,
    ...(entry.expires === null ? [] : [`  expires: ${yamlScalar(entry.expires)}`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The `quarantine:` lines of an entry, each value on one line (read back exactly). */
export function serializeQuarantine(terms: QuarantineTerms, indent = ''): string[] {
  return [
    `${indent}quarantine:`,
    ...Object.entries(quarantineTermsToYaml(terms)).map(([k, v]) => `${indent}  ${k}: ${yamlScalar(v)}`),
  ];
}
