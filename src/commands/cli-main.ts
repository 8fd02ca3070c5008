/**
 * The command dispatch behind src/cli.ts: picks a command from argv, runs it and returns its exit
 * code, setting nothing process-wide: src/cli.ts, the one exit point, sets process.exitCode and maps
 * errors; the tests' in-process harness (test/helpers/in-process-cli.ts) calls runCli, which maps
 * them the same way (describeFailure), with stdout and stderr captured.
 */
import { excerpt } from '../core/excerpt.js';
import { describeFailure, flakeguardVersion } from './describe-failure.js';

const USAGE = `flakeguard: guards a Vitest suite against flaky and slow tests

Usage:
  flakeguard gate [options]        run the tests a branch adds or changes as CI would, before merge
  flakeguard triage [options]      classify every failure of a red run, with its evidence
  flakeguard replay <file> -t <name> [options]                   run one test under the conditions that made it fail
  flakeguard allowances add|list|check|prune|migrate [options]   more time for one test
  flakeguard quarantine add|list|check|remove [options]          a known-flaky test that runs but does not fail the run
  flakeguard history [ingest|prune] [options]                    flake and duration history of every test
  flakeguard init [--root <dir>]   write flakeguard.yaml and allowances/
  flakeguard --version

The reporter: add 'flakeguard/reporter' to the reporters in your Vitest config.
Exit codes: 0 nothing to act on, 1 the guard found something, 2 could not run, 130 interrupted.
Run 'flakeguard <command> --help' for a command's options.`;

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  gate: async () => (await import('./gate/gate-command.js')).runGateCommand,
  triage: async () => (await import('./triage/triage-command.js')).runTriageCommand,
  replay: async () => (await import('./replay/replay-command.js')).runReplayCommand,
  allowances: async () => (await import('./allowances/allowances-command.js')).runAllowancesCommand,
  quarantine: async () => (await import('./quarantine/quarantine-command.js')).runQuarantineCommand,
  init: async () => (await import('./init/init-command.js')).runInitCommand,
  history: async () => (await import('./history/history-command.js')).runHistoryCommand,
};

/** Runs `flakeguard ...argv` and returns its exit code; a command's error is thrown (src/cli.ts maps it). */
export async function runCommandLine(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${flakeguardVersion()}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(
      `flakeguard: unknown command ${excerpt(name)}; use one of ${Object.keys(COMMANDS).join(', ')} (flakeguard --help)\n`,
    );
    return 2;
  }
  const command = await load();
  return command(rest);
}

/**
 * runCommandLine with the error mapped as src/cli.ts maps it: printed on stderr, its exit code
 * returned (for callers that run the CLI inside their own process).
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    return await runCommandLine(argv);
  } catch (error) {
    const { exitCode, text } = describeFailure(error);
    process.stderr.write(`${text}\n`);
    return exitCode;
  }
}
