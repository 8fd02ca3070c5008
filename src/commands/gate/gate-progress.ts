/**
 * The gate's progress on stderr: on a TTY outside CI one live line (test i/M, try k/N, elapsed,
 * load) redrawn on each try and every second; in CI or when stderr is not a TTY, one line per step
 * and per try (above 20 tests, a count every 5 s instead: hung tries always get their line).
 */
import type { ProgressLine, TryState } from '../../core/gate/runner-protocol.js';
import type { Screen } from '../../io/terminal.js';
import { formatGateProgress } from './gate-format.js';

/** Above this many tests, a non-live progress prints a count every SUMMARY_EVERY_MS instead of every try. */
const SUMMARY_ABOVE = 20;
const SUMMARY_EVERY_MS = 5000;

export interface GateProgressPrinter {
  step(text: string): void;
  tryDone(phase: string, line: ProgressLine, index: number): void;
  /** Clears the live line and stops the ticker. */
  stop(): void;
}

interface LastTry {
  readonly phase: string;
  readonly line: ProgressLine;
  readonly index: number;
}

/** The live line for the last try: test i/M, try k/N, its name, elapsed, load. */
function describeLastTry(last: LastTry, tests: number, workers: number, started: number): string {
  return formatGateProgress({
    phase: last.phase,
    testIndex: last.index,
    tests,
    attempt: last.line.attempt,
    maxTries: last.line.maxTries,
    label: `${last.line.file} > ${last.line.fullName}${last.line.project ? ` [${last.line.project}]` : ''}`,
    state: last.line.try.state,
    elapsedMs: performance.now() - started,
    load: last.phase === 'under load' ? workers : 0,
  });
}

/** The count of tries done so far, for many tests (500 new ones in a file). */
function describeTriesDone(
  phase: string,
  done: Readonly<Record<TryState, number>>,
  lastTest: string,
  elapsedMs: number,
): string {
  return `gate ${phase}: ${done.passed + done.failed + done.hung + done.skipped} tries done (${done.passed} passed, ${done.failed} failed, ${done.hung} hung), last test ${lastTest} (${(elapsedMs / 1000).toFixed(1)}s)`;
}

export function createGateProgress(
  screen: Screen,
  tests: number,
  workers: number,
  stream: NodeJS.WriteStream = process.stderr,
): GateProgressPrinter {
  const started = performance.now();
  const width = screen.columns >= 40 ? screen.columns - 1 : 120;
  let last: LastTry | null = null;
  const done = { passed: 0, failed: 0, skipped: 0, hung: 0 };
  let lastSummary = Number.NEGATIVE_INFINITY;
  const render = (): string | null => (last === null ? null : describeLastTry(last, tests, workers, started));
  const ticker = screen.live
    ? setInterval(() => {
        const text = render();
        if (text !== null) stream.write(`\r\u001b[K${text.slice(0, width)}`);
      }, 1000)
    : null;
  ticker?.unref();
  return {
    step(text) {
      if (screen.live) stream.write('\r\u001b[K');
      stream.write(`flakeguard gate: ${text}\n`);
      last = null;
    },
    tryDone(phase, line, index) {
      last = { phase, line, index };
      done[line.try.state] += 1;
      const text = render() ?? '';
      if (screen.live) stream.write(`\r\u001b[K${text.slice(0, width)}`);
      else if (tests <= SUMMARY_ABOVE || line.try.state === 'hung') stream.write(`${text}\n`);
      else if (performance.now() - lastSummary >= SUMMARY_EVERY_MS) {
        // Many tests (500 new ones in a file): a count every few seconds, not a line per try.
        lastSummary = performance.now();
        stream.write(`${describeTriesDone(phase, done, `${index}/${tests}`, lastSummary - started)}\n`);
      }
    },
    stop() {
      if (ticker) clearInterval(ticker);
      if (screen.live) stream.write('\r\u001b[K');
    },
  };
}
