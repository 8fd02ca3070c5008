/**
 * The machines a listed test ran on (issue 37): per machine id, its class and the test's runs there
 * (CI runs counted apart). Runs stored before machines were recorded are one entry with a null id.
 * Read for the listed tests only (io/history/history-query.ts readTestMachines). Pure.
 */
import { describeMachineClass } from '../record/machine.js';
import { type TestId, testKey } from '../test-id.js';

export interface TestMachine {
  /** The machine's id (core/record/machine.ts); null for runs stored with no machine. */
  readonly id: string | null;
  readonly cpuModel: string | null;
  readonly cores: number | null;
  /** The test's runs there (passed or failed) in the window. */
  readonly runs: number;
  /** Of them, runs with a CI context or CI job. */
  readonly ciRuns: number;
}

/** Machines named in the text; the others are counted. */
const MACHINES_NAMED = 3;

const byRuns = (a: TestMachine, b: TestMachine): number =>
  b.runs - a.runs || ((a.id ?? '~') < (b.id ?? '~') ? -1 : (a.id ?? '~') > (b.id ?? '~') ? 1 : 0);

/** Each test with its machines (most runs first), from `machinesOf` keyed by testKey. */
export function withTestMachines<T extends TestId>(
  tests: readonly T[],
  machinesOf: ReadonlyMap<string, readonly TestMachine[]>,
): (T & { readonly machines: readonly TestMachine[] })[] {
  return tests.map((t) => ({ ...t, machines: [...(machinesOf.get(testKey(t)) ?? [])].sort(byRuns) }));
}

function describeOne(m: TestMachine): string {
  const where =
    m.cpuModel === null || m.cores === null
      ? `${m.id}`
      : `${m.id} (${describeMachineClass({ cpuModel: m.cpuModel, cores: m.cores })})`;
  const ci = m.ciRuns === 0 ? '' : m.ciRuns === m.runs ? ', in CI' : `, ${m.ciRuns} in CI`;
  return `${where} ${m.runs} run${m.runs === 1 ? '' : 's'}${ci}`;
}

/**
 * `ran on 3 machines: 3f9a1c2b7d10 (Example CPU, 8 cores) 20 runs, 9b2e44aa0c31 (AMD EPYC, 4 cores)
 * 5 runs, in CI, and 1 more; 4 runs with no machine recorded`; '' without machines.
 */
export function describeTestMachines(machines: readonly TestMachine[]): string {
  const known = machines.filter((m) => m.id !== null);
  const unknown = machines.filter((m) => m.id === null).reduce((n, m) => n + m.runs, 0);
  const parts: string[] = [];
  if (known.length > 0) {
    const named = known.slice(0, MACHINES_NAMED).map(describeOne).join(', ');
    const more = known.length - MACHINES_NAMED;
    parts.push(
      `ran on ${known.length} machine${known.length === 1 ? '' : 's'}: ${named}${more > 0 ? `, and ${more} more` : ''}`,
    );
  }
  if (unknown > 0) parts.push(`${unknown} run${unknown === 1 ? '' : 's'} with no machine recorded`);
  return parts.join('; ');
}
