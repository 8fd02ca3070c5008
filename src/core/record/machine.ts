/**
 * The machine a run ran on (the run record's `machine`, docs/run-record.md): a short stable id and
 * the machine's class. The id is the first 12 hex digits of the SHA-256 of a fixed prefix, the host
 * name (trimmed, lower-cased: host names are case-insensitive), the CPU model (whitespace collapsed)
 * and the logical core count, each on its own line. The host name alone tells laptops and agents
 * apart; the CPU model and core count make a re-imaged or resized machine under an old name a new
 * machine, as its speed is new. The raw host name is never stored. 12 hex digits (48 bits) print
 * short and keep collisions away in any team's store (1,000 machines: about 2 in a billion). The
 * hash hides the name from a reader who does not guess it; a name that can be guessed (with the
 * CPU model and core count stored beside it) can be checked: the id is a pseudonym, not a secret.
 *
 * The class is what the id's inputs say of speed, the CPU model and the core count (neither is
 * secret, so they are stored as they are): machines of one class run a suite at about one speed,
 * so `gate --slowdown auto` falls back to them when this machine has no run (core/calibration).
 * Pure; the host name and the CPU are read in io/machine.ts.
 */
import { clipText, NAME_MAX } from '../excerpt.js';

export interface MachineIdentity {
  /** 12 lower-case hex digits (MACHINE_ID_LENGTH). */
  readonly id: string;
  /** The CPU model as the OS names it, whitespace collapsed (`unknown CPU` when it names none). */
  readonly cpuModel: string;
  /** Logical cores (os.cpus().length): the machine's, not the run's share of them. */
  readonly cores: number;
}

export const MACHINE_ID_LENGTH = 12;
const HASH_PREFIX = 'flakeguard machine v1';

export function normalizeCpuModel(model: string): string {
  return model.replace(/\s+/g, ' ').trim() || 'unknown CPU';
}

/** The text whose SHA-256 gives the id: prefix, host name, CPU model and core count, one a line. */
export function machineHashInput(hostname: string, cpuModel: string, cores: number): string {
  return [HASH_PREFIX, hostname.trim().toLowerCase(), normalizeCpuModel(cpuModel), String(cores)].join('\n');
}

/** Same CPU model and core count. */
export function sameMachineClass(a: MachineIdentity, b: MachineIdentity): boolean {
  return a.cpuModel === b.cpuModel && a.cores === b.cores;
}

/** `AMD EPYC 7763 64-Core Processor, 4 cores`. */
export function describeMachineClass(m: Pick<MachineIdentity, 'cpuModel' | 'cores'>): string {
  return `${clipText(m.cpuModel, NAME_MAX)}, ${m.cores} core${m.cores === 1 ? '' : 's'}`;
}

/** `3f9a1c2b7d10 (AMD EPYC 7763 64-Core Processor, 4 cores)`. */
export function describeMachine(m: MachineIdentity): string {
  return `${m.id} (${describeMachineClass(m)})`;
}

/** A record's or a store's `machine` value: an object with a 12-hex-digit id, a CPU model and a core count. */
export function isMachineIdentity(value: unknown): value is MachineIdentity {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m['id'] === 'string' &&
    new RegExp(`^[0-9a-f]{${MACHINE_ID_LENGTH}}$`).test(m['id']) &&
    typeof m['cpuModel'] === 'string' &&
    typeof m['cores'] === 'number' &&
    Number.isInteger(m['cores']) &&
    m['cores'] >= 0
  );
}
