import { FlakeguardError } from '../core/errors.js';

// Placeholder until the 'triage' command lands; replaced by its owner.
export async function runTriageCommand(_args: string[]): Promise<number> {
  throw new FlakeguardError('USAGE', 'flakeguard triage is not built yet');
}
