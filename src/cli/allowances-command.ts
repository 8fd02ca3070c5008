import { FlakeguardError } from '../core/errors.js';

// Placeholder until the 'allowances' command lands; replaced by its owner.
export async function runAllowancesCommand(_args: string[]): Promise<number> {
  throw new FlakeguardError('USAGE', 'flakeguard allowances is not built yet');
}
