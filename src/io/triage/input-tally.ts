/**
 * What gathering triage inputs has read so far: the observations of every input in the order they
 * were read, the input problems, and the counts that decide whether anything could be read at all.
 */
import path from 'node:path';
import type {
  BudgetExcess,
  InputProblem,
  LogScan,
  ObservedFile,
  ObservedTest,
  ObservedUnhandled,
} from '../../core/triage/triage-types.js';

export interface InputTally {
  readonly tests: ObservedTest[];
  readonly files: ObservedFile[];
  readonly unhandled: ObservedUnhandled[];
  readonly recordExcesses: BudgetExcess[];
  readonly problems: InputProblem[];
  readonly logs: LogScan[];
  /** Why each input that gave nothing could not be read. */
  readonly unreadable: string[];
  readonly runIds: string[];
  /** Evidence lines of the records that say their run was interrupted. */
  readonly interrupted: string[];
  /** Inputs that gave at least something. */
  readable: number;
  /** The highest exit code the run records name, or null when none does. */
  recordExit: number | null;
  recordsRead: number;
}

export function makeInputTally(): InputTally {
  return {
    tests: [],
    files: [],
    unhandled: [],
    recordExcesses: [],
    problems: [],
    logs: [],
    unreadable: [],
    runIds: [],
    interrupted: [],
    readable: 0,
    recordExit: null,
    recordsRead: 0,
  };
}

/** An input's path as the messages show it: relative to the working folder when inside it, with `/`. */
export function displayInputPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel === '' || rel.startsWith('..') ? file : rel).split(path.sep).join('/');
}
