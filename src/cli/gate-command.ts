import { FlakeguardError } from '../core/errors.js';

// Placeholder until the 'gate' command lands; replaced by its owner.
export async function runGateCommand(_args: string[]): Promise<number> {
  throw new FlakeguardError('USAGE', 'flakeguard gate is not built yet');
}
