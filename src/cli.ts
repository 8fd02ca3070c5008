#!/usr/bin/env node
/**
 * The one exit point. Exit codes: 0 nothing to act on, 1 the guard found something, 2 could not run,
 * 130 interrupted. Every error, whenever it happens (a rejected promise, an uncaught exception), is
 * mapped here by `describeFailure` (commands/cli-main.ts dispatches): a FlakeguardError prints its one-line message and exits its code;
 * an fs error on a path the user gave is a usage error (2) naming the path; anything else is a bug:
 * exit 2 with its stack and a request for a bug report. Nothing ever exits 1 by crashing.
 */
import { runCommandLine } from './commands/cli-main.js';
import { describeFailure } from './commands/describe-failure.js';
import { compileWasmAtBaselineOnly } from './io/history/wasm-baseline.js';
import { isInterruptHandled } from './io/process/interrupt.js';

// Only flakeguard's code runs in this process (Vitest runs in children): the history store's WASM
// is compiled at V8's baseline tier, set once before any is compiled (io/history/wasm-baseline.ts).
compileWasmAtBaselineOnly({ env: process.env, execArgv: process.execArgv });

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

runCommandLine(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, fail);
