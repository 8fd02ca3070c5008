/**
 * A process and everything below it, detached children included (they leave the process group but
 * keep their parent): found through /proc (Linux) and killed at once.
 */
import { descendantsOf } from '../../core/gate/runner-protocol.js';
import { parentsOf, readProcTable } from './proc.js';

/** SIGKILLs `pid` and its descendants (listed first, so none is reparented away). Never throws. */
export function killProcessTree(pid: number): void {
  const table = readProcTable();
  const parents = table ? parentsOf(table) : new Map<number, number>();
  for (const target of [...descendantsOf(pid, parents), pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
