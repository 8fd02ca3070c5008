import { FlakeguardError } from '../core/errors.js';

// Placeholder until the 'init' command lands; replaced by its owner.
export async function runInitCommand(_args: string[]): Promise<number> {
  throw new FlakeguardError('USAGE', 'flakeguard init is not built yet');
}
