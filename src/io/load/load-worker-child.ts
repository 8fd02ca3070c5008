/**
 * The program each load worker runs (`node -e`): spin the CPU in 20 ms slices, yielding to the event
 * loop between slices so that it notices when flakeguard goes away. Its stdin is a pipe held only by
 * flakeguard: when flakeguard exits, even by SIGKILL, the pipe closes and the worker exits, so a
 * worker can never outlive the gate. Normally the gate kills it first (see load-workers.ts).
 */
export const LOAD_WORKER_SOURCE = [
  "process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume();",
  "process.on('SIGTERM', () => process.exit(0));",
  'let x = 0;',
  'function spin() {',
  '  const end = Date.now() + 20;',
  '  while (Date.now() < end) x = (x + Math.sqrt(x + 1)) % 1e9;',
  '  setImmediate(spin);',
  '}',
  'spin();',
].join('\n');
