#!/usr/bin/env node
/**
 * The one exit point. Exit codes: 0 nothing to act on, 1 the guard found something, 2 could not run,
 * 130 interrupted. Known errors print without a stack; anything else is a bug and keeps its stack.
 */
import { isFlakeguardError } from './core/errors.js';

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
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`flakeguard: unknown command "${name}"; use one of ${Object.keys(COMMANDS).join(', ')} (flakeguard --help)\n`);
    return 2;
  }
  const command = await load();
  return command(rest);
}

process.once('SIGINT', () => {
  // Commands that start processes install their own handlers and clean up; this is the fallback.
  if (process.listenerCount('SIGINT') === 0) process.exit(130);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (isFlakeguardError(error)) {
      process.stderr.write(`flakeguard: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.exitCode = 2;
    throw error;
  },
);
