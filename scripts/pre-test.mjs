// What `npm test` runs before Vitest: the one TypeScript pass (scripts/build-checked.mjs) and the lint
// (`npm run lint`: biome, then the unused-export ratchet) side by side, as two processes: neither reads
// what the other writes (lint reads src/ and test/, the build writes dist/), and each is one thread, so
// on 2 cores the pair takes about as long as the build alone. Each one's output is printed whole when
// it ends (never interleaved), in the order they end.
// Usage: node scripts/pre-test.mjs   (exit 0 when both pass, else the first non-zero exit code)
import { spawn } from 'node:child_process';

const STEPS = [
  { name: 'build:checked', command: process.execPath, args: ['scripts/build-checked.mjs'] },
  { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'] },
];

/** Runs one step with its output kept; resolves to its exit code (a signal counts as 1). */
function run(step) {
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${step.name}: could not start: ${error.message}\n`));
      resolve({ step, code: 2, output: Buffer.concat(chunks) });
    });
    child.on('close', (code) => resolve({ step, code: code ?? 1, output: Buffer.concat(chunks) }));
    running.add(child);
  });
}

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

let exitCode = 0;
await Promise.all(
  STEPS.map(async (step) => {
    const { code, output } = await run(step);
    process.stdout.write(`> ${step.name}\n${output}`);
    if (code !== 0) {
      process.stdout.write(`${step.name} failed (exit ${code})\n`);
      if (exitCode === 0) exitCode = code;
    }
  }),
);
process.exit(exitCode);
