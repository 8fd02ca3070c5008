/**
 * The gate's progress on stderr: on a TTY outside CI one live line (test i/M, try k/N, elapsed,
 * load) redrawn on each try and every second; in CI or when stderr is not a TTY, one line per step
 * and per try.
 */
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import { formatGateProgress } from './gate-format.js';
import type { Screen } from '../../io/terminal.js';

export interface GateProgressPrinter {
  step(text: string): void;
  tryDone(phase: string, line: ProgressLine, index: number): void;
  /** Clears the live line and stops the ticker. */
  stop(): void;
}

export function createGateProgress(screen: Screen, tests: number, workers: number, stream: NodeJS.WriteStream = process.stderr): GateProgressPrinter {
  const started = performance.now();
  const width = screen.columns >= 40 ? screen.columns - 1 : 120;
  let last: { phase: string; line: ProgressLine; index: number } | null = null;
  const render = (): string | null => {
    if (last === null) return null;
    return formatGateProgress({
      phase: last.phase,
      testIndex: last.index,
      tests,
      attempt: last.line.attempt,
      runs: last.line.runs,
      name: `${last.line.file} > ${last.line.fullName}${last.line.project ? ` [${last.line.project}]` : ''}`,
      state: last.line.state,
      elapsedMs: performance.now() - started,
      load: last.phase === 'under load' ? workers : 0,
    });
  };
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
      const text = render() ?? '';
      if (screen.live) stream.write(`\r\u001b[K${text.slice(0, width)}`);
      else stream.write(`${text}\n`);
    },
    stop() {
      if (ticker) clearInterval(ticker);
      if (screen.live) stream.write('\r\u001b[K');
    },
  };
}
