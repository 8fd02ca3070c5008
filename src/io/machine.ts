/**
 * This machine's identity (core/record/machine.ts): the host name, the CPU model and the logical
 * core count read from the OS, hashed here; the host name goes no further.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import {
  MACHINE_ID_LENGTH,
  type MachineIdentity,
  machineHashInput,
  normalizeCpuModel,
} from '../core/record/machine.js';

export function readMachineIdentity(): MachineIdentity {
  const cpus = os.cpus();
  const cpuModel = normalizeCpuModel(cpus[0]?.model ?? '');
  // os.cpus() is empty where the OS hides them (some containers): the parallelism Node sees instead.
  const cores = cpus.length > 0 ? cpus.length : os.availableParallelism();
  const id = createHash('sha256')
    .update(machineHashInput(os.hostname(), cpuModel, cores))
    .digest('hex')
    .slice(0, MACHINE_ID_LENGTH);
  return { id, cpuModel, cores };
}
