#!/usr/bin/env node
/**
 * The one exit point. Exit codes: 0 nothing to act on, 1 the guard found something, 2 could not run,
 * 130 interrupted. Every error, whenever it happens (a rejected promise, an uncaught exception), is
 * mapped here by `describeFailure`: a FlakeguardError prints its one-line message and exits its code;
 * an fs error on a path the user gave is a usage error (2) naming the path; anything else is a bug:
 * exit 2 with its stack and a request for a bug report. Nothing ever exits 1 by crashing.
 */
import { describeFailure, flakeguardVersion } from './commands/describe-failure.js';
import { excerpt } from './core/excerpt.js';
import { isInterruptHandled } from './io/process/interrupt.js';

const USAGE = `flakeguard: guards a Vitest suite against flaky and slow tests

Usage:
  flakeguard gate [options]        run the tests a branch adds or changes as CI would, before merge
  flakeguard triage [options]      classify every failure of a red run, with its evidence
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
  gate: async () => (await import('./commands/gate/gate-command.js')).runGateCommand,
  triage: async () => (await import('./commands/triage/triage-command.js')).runTriageCommand,
  allowances: async () => (await import('./commands/allowances/allowances-command.js')).runAllowancesCommand,
  quarantine: async () => (await import('./commands/quarantine/quarantine-command.js')).runQuarantineCommand,
  init: async () => (await import('./commands/init/init-command.js')).runInitCommand,
  history: async () => (await import('./commands/history/history-command.js')).runHistoryCommand,
};

async function main(argv: string[]): Promise<number> {
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

let failed = false;
function fail(error: unknown): void {
  if (failed) return;
  failed = true;
  const { exitCode, text } = describeFailure(error);
  process.stderr.write(`${text}\n`);
  process.exitCode = exitCode;
}

// A rejection or exception outside main's promise chain (a stray callback) is mapped the same way;
// Node would otherwise exit 1, the code that means "the guard found something".
process.on('unhandledRejection', (reason) => {
  fail(reason);
  process.exit(process.exitCode);
});
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit(process.exitCode);
});

// SIGINT and SIGTERM alike: commands that start processes or hold a store listen (listenForInterrupt),
// stop them and exit 130 through describeFailure; otherwise (nothing to stop) this fallback exits 130,
// whatever listeners libraries added (execa's signal-exit would otherwise leave the signal ignored).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (isInterruptHandled()) return;
    process.stderr.write('flakeguard: interrupted\n');
    process.exit(130);
  });
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, fail);
