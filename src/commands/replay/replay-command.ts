/**
 * `flakeguard replay <file> -t <name> [conditions]` (docs/replay.md): gathers the test's line from
 * its source, runs it --times times under the conditions through the gate's try machinery
 * (io/vitest/vitest-tries.ts runTestsAlone: only it, after the --after test, each try a fresh
 * worker with --cold, else one worker and the rest as warm repeats), then prints the report
 * (core/replay/replay-report.ts). Exit 1 when any try failed, 0 when none did, 2 when it could not
 * run, 130 on Ctrl-C (the Vitest child and its workers stopped with it).
 */
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { computeReplayReport, formatReplayReport, replayExitCode } from '../../core/replay/replay-report.js';
import { findReplayLines } from '../../core/replay/replay-target.js';
import { replayTriesOf } from '../../core/replay/replay-tries.js';
import { extractTests } from '../../core/source/test-source.js';
import { formatUsage } from '../../core/usage.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import { runTestsAlone } from '../../io/vitest/vitest-tries.js';
import { parseReplayArgs, REPLAY_USAGE, type ReplayArgs } from './replay-args.js';

/** Pacing stops and resumes the worker's tree by its /proc entries: without /proc it cannot be made. */
function checkPacing(slowdown: number | null): void {
  if (slowdown === null || slowdown <= 1 || existsSync('/proc/self/stat')) return;
  throw new FlakeguardError(
    'USAGE',
    `--slowdown ${slowdown} cannot be made on this machine: pacing reads /proc, which it has not (as on macOS); run the replay on Linux (a CI runner, a container), or without --slowdown`,
  );
}

function readLines(args: ReplayArgs): { line: number; afterLine: number | null } {
  const { file } = args.conditions;
  const absolute = path.resolve(args.root, file);
  if (!existsSync(absolute))
    throw new FlakeguardError(
      'USAGE',
      `${file} does not exist under ${args.root}; pass the test file relative to the project root (--root)`,
    );
  const found = findReplayLines(extractTests(readFileSync(absolute, 'utf8'), file), args.conditions);
  if ('error' in found) throw new FlakeguardError('USAGE', found.error);
  return found;
}

export async function runReplayCommand(argv: string[]): Promise<number> {
  const args = parseReplayArgs(argv);
  if (args === 'help') {
    process.stdout.write(`${formatUsage(REPLAY_USAGE)}\n`);
    return 0;
  }
  const { conditions, times } = args;
  checkPacing(conditions.slowdown);
  const { line, afterLine } = readLines(args);
  const interrupt = listenForInterrupt();
  try {
    const outcome = await runTestsAlone({
      root: args.root,
      tests: [{ file: conditions.file, fullName: conditions.fullName, line, afterLine, project: conditions.project }],
      ...replayTriesOf(conditions.cold, times),
      setup: { config: args.config, projects: conditions.project === null ? [] : [conditions.project] },
      ...(conditions.slowdown !== null && conditions.slowdown > 1 ? { slowdown: conditions.slowdown } : {}),
      seed:
        conditions.seed === null
          ? { kind: 'derived', runSeed: randomInt(0, 0x1_0000_0000), nodeCrypto: conditions.nodeCrypto }
          : { kind: 'fixed', seed: conditions.seed, nodeCrypto: conditions.nodeCrypto },
      signal: interrupt.signal,
    });
    const tried = outcome.tests[0];
    if (tried === undefined || !tried.found || tried.tries.length === 0)
      throw new FlakeguardError(
        'VITEST',
        `Vitest did not run "${conditions.fullName}" of ${conditions.file}${
          tried?.errors.length
            ? `: ${tried.errors[0]}`
            : outcome.moduleErrors[0]
              ? `: ${outcome.moduleErrors[0].message}`
              : ''
        }; check it runs with npx vitest run ${conditions.file}`,
      );
    const report = computeReplayReport(conditions, tried.tries);
    process.stdout.write(formatReplayReport(report));
    return replayExitCode(report);
  } catch (error) {
    if (interrupt.signal.aborted) throw interruptedError('the replay tries were');
    throw error;
  } finally {
    interrupt.dispose();
  }
}
